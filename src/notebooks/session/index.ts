export { type LiveUpdates, type LiveUpdateTarget, PollingUpdates } from './liveUpdates';
export { FRESH_MS, type FormText, NotebookSession, notebookText, type SessionChange, type WriteOutcome } from './notebookSession';
export { DEFAULT_POLL_SECONDS, NotebookSessions, sessionKey, type SessionsDeps } from './notebookSessions';
export type { BaseStore, EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
export { ContentRefusedError, type TextPlace } from './contentRefusal';
export { changeAuthor, isServerRevision } from './changeAuthor';
export { type CommentsRead, type ConversionPlan, commentRepliesOf, planConversion } from './markdownConversion';
