import * as vscode from 'vscode';

/**
 * VS Code's Timeline API (the Timeline view of the Explorer: a file's history beside it). It is still a
 * proposed API (vscode.proposed.timeline.d.ts, not in @types/vscode): VS Code lets the extension use it when
 * package.json enables the "timeline" proposal and VS Code runs with `--enable-proposed-api
 * posthog-explorer.posthog-explorer` (the test host and `npm start` pass it); elsewhere registering throws,
 * and a notebook's history stays available through "Show Notebook Activity". These are the proposal's
 * shapes this extension uses.
 */
export interface TimelineItem {
  readonly timestamp: number;
  readonly label: string;
  readonly id?: string;
  readonly iconPath?: vscode.ThemeIcon;
  readonly description?: string;
  readonly tooltip?: string | vscode.MarkdownString;
  readonly command?: vscode.Command;
  readonly contextValue?: string;
}

export interface TimelineChangeEvent {
  readonly uri: vscode.Uri;
  readonly reset?: boolean;
}

export interface Timeline {
  readonly paging?: { readonly cursor: string | undefined };
  readonly items: readonly TimelineItem[];
}

export interface TimelineOptions {
  readonly cursor?: string;
  readonly limit?: number | { timestamp: number; id?: string };
}

export interface TimelineProvider {
  readonly onDidChange?: vscode.Event<TimelineChangeEvent | undefined>;
  readonly id: string;
  readonly label: string;
  readonly scheme: string | string[];
  provideTimeline(uri: vscode.Uri, options: TimelineOptions, token: vscode.CancellationToken): vscode.ProviderResult<Timeline>;
}

type TimelineWorkspace = { registerTimelineProvider?: (scheme: string | string[], provider: TimelineProvider) => vscode.Disposable };

/** Registers `provider` with VS Code's Timeline, or says why it cannot (the proposal is not enabled). */
export function registerTimelineProvider(provider: TimelineProvider): { registration?: vscode.Disposable; reason?: string } {
  const register = (vscode.workspace as unknown as TimelineWorkspace).registerTimelineProvider;
  if (!register) {
    return { reason: 'this VS Code has no Timeline API' };
  }
  try {
    return { registration: register(provider.scheme, provider) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}
