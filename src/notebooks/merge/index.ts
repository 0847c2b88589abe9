export { findConflictMarkers, type ConflictMarker, type FoundMarker, type MergeLabels, OURS_LABEL, THEIRS_LABEL } from './conflictMarkers';
export { type JsonMergeOutcome, mergeNotebookJson } from './jsonMerge';
export { type LineConflict, type MarkdownMerge, mergeMarkdown, mergeMarkdownLines, type MergedLine, type MergeOutcome } from './markdownMerge';
export { joinLines, splitLines } from './markdownBlocks';
export { mergeRegions, type Region } from './sequenceMerge';
