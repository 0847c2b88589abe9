export { findConflictMarkers, type ConflictMarker, type FoundMarker, type MergeLabels } from './conflictMarkers';
export { type JsonMergeOutcome, mergeNotebookJson } from './jsonMerge';
export { mergeMarkdown, type MergeOutcome } from './markdownMerge';
