export { findConflictMarkers, type ConflictMarker, type FoundMarker, type MergeLabels, OURS_LABEL, THEIRS_LABEL } from './conflictMarkers';
export { type JsonMergeOutcome, mergeNotebookJson } from './jsonMerge';
export { mergeMarkdown, type MergeOutcome } from './markdownMerge';
