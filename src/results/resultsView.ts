import type * as vscode from 'vscode';

/** The document whose queries a Results panel shows: a notebook or a HogQL document. */
export interface ResultsTarget {
  readonly uri: vscode.Uri;
  readonly title: string;
}

export type ResultSectionState =
  | { readonly state: 'running'; readonly startedAt: number }
  | { readonly state: 'done'; readonly response: unknown; readonly durationMs: number }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'cancelled' };

/** One card (or HogQL document, or selection) in a Results panel. */
export interface ResultSection {
  readonly id: string;
  readonly label: string;
  /** The inner query's kind: HogQLQuery, EventsQuery, TrendsQuery, FunnelsQuery, ... */
  readonly queryKind: string;
  readonly webUrl?: string;
}

/** Where runs show their results; the run controller listens for the user's Cancel. */
export interface ResultsView {
  show(target: ResultsTarget, section: ResultSection, state: ResultSectionState): void;
  readonly onDidRequestCancel: vscode.Event<{ readonly uri: string; readonly sectionId: string }>;
}
