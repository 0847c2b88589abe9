import * as vscode from 'vscode';
import type { WindowApi } from '../workbench/window';

export type ConflictChoice = 'compare' | 'overwrite' | 'discard';

export interface Conflict {
  readonly title: string;
  /** The version the editor's text is based on. */
  readonly yourVersion: number;
  readonly serverVersion: number;
  readonly modifiedBy: string | null;
  readonly modifiedAt: string;
}

/** Asks what to do when a save meets a newer version on the server; undefined keeps the editor as it is. */
export interface ConflictResolver {
  choose(conflict: Conflict): Promise<ConflictChoice | undefined>;
}

export function conflictLabels(): Record<ConflictChoice, string> {
  return {
    compare: vscode.l10n.t('Compare'),
    overwrite: vscode.l10n.t('Overwrite'),
    discard: vscode.l10n.t('Discard My Changes'),
  };
}

/** A modal dialog: Overwrite and Discard each lose someone's edits, so the user decides explicitly. */
export class DialogConflictResolver implements ConflictResolver {
  constructor(private readonly window: WindowApi) {}

  async choose(conflict: Conflict): Promise<ConflictChoice | undefined> {
    const labels = conflictLabels();
    const who = conflict.modifiedBy ?? vscode.l10n.t('someone');
    const picked = await this.window.showWarningMessage(
      vscode.l10n.t('"{0}" was changed on PostHog since you opened it.', conflict.title),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Your text is based on version {0}; PostHog has version {1} (last saved by {2} at {3}). Nothing was saved.\n\nCompare: see both side by side (your text stays unsaved).\nOverwrite: save your text over version {1}.\nDiscard My Changes: take the version on PostHog.',
          conflict.yourVersion,
          conflict.serverVersion,
          who,
          conflict.modifiedAt,
        ),
      },
      labels.compare,
      labels.overwrite,
      labels.discard,
    );
    const entry = (Object.entries(labels) as [ConflictChoice, string][]).find(([, label]) => label === picked);
    return entry?.[0];
  }
}
