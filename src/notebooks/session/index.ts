export { type CaretInText, Collaborators } from './collaborators';
export { checkForChanges, type LiveUpdates, type LiveUpdateTarget, PollingUpdates } from './liveUpdates';
export { FRESH_MS, type FormText, NotebookSession, notebookText, type SessionChange, type WriteOutcome } from './notebookSession';
export { DEFAULT_POLL_SECONDS, type LiveMode, NotebookSessions, PAUSE_AFTER_UNFOCUSED_MS, sessionKey, type SessionsDeps, STREAMS_PER_CONNECTION } from './notebookSessions';
export type { BaseStore, EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
export type { Author } from './presence';
export { type LineRange, textEdits } from './remoteMerge';
export { type RemotePresence, type RemoteUpdate, StreamBudget, type StreamTarget, StreamUpdates } from './streamUpdates';
