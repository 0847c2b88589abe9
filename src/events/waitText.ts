import * as vscode from 'vscode';
import type { BudgetWait } from '../api';
import { displayLanguage } from '../workbench/window';

/** "45 s", "12 min": how long, short. */
export function durationText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? vscode.l10n.t('{0} s', seconds) : vscode.l10n.t('{0} min', Math.ceil(seconds / 60));
}

/** What a request is waiting for, in words fit for a status line or a progress message. */
export function waitNote(wait: BudgetWait, now = Date.now()): string {
  const left = durationText(wait.untilMs - now);
  const at = new Date(wait.untilMs).toLocaleTimeString(displayLanguage(), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  switch (wait.reason) {
    case 'throttled':
      return vscode.l10n.t('PostHog asked to wait {0} (its rate limit for this API key); going on at {1}', left, at);
    case 'minute':
      return vscode.l10n.t("waiting {0} to stay within PostHog's per-minute limit for this API key", left);
    case 'hour':
      return vscode.l10n.t("waiting {0} (until {1}) to stay within PostHog's hourly limit for this API key", left, at);
  }
}
