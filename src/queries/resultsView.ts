import type * as vscode from 'vscode';

// The Results view's shape, as src/results exports it (the contract between the two features). This copy goes
// once src/results is merged: the imports then name the results folder's entry point.

export interface ResultsTarget {
  readonly uri: vscode.Uri;
  readonly title: string;
}

export type ResultSectionState =
  | { readonly state: 'running'; readonly startedAt: number }
  | { readonly state: 'done'; readonly response: unknown; readonly durationMs: number }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'cancelled' };

export interface ResultSection {
  readonly id: string;
  readonly label: string;
  /** The inner query's kind: HogQLQuery, EventsQuery, TrendsQuery, FunnelsQuery, ... */
  readonly queryKind: string;
  readonly webUrl?: string;
}

export interface ResultsView {
  show(target: ResultsTarget, section: ResultSection, state: ResultSectionState): void;
  readonly onDidRequestCancel: vscode.Event<{ readonly uri: string; readonly sectionId: string }>;
}
