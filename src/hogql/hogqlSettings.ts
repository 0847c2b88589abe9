import * as vscode from 'vscode';

export const DIAGNOSTICS_DELAY_SETTING = 'posthogExplorer.hogql.diagnosticsDelayMs';
export const SCHEMA_MAX_AGE_SETTING = 'posthogExplorer.hogql.schemaMaxAgeMinutes';

const DEFAULT_DELAY_MS = 600;
const DEFAULT_SCHEMA_MINUTES = 10;

/** The pause after typing before PostHog checks the text. */
export function diagnosticsDelayMs(): number {
  return vscode.workspace.getConfiguration().get<number>(DIAGNOSTICS_DELAY_SETTING, DEFAULT_DELAY_MS);
}

/** How long a project's schema is used before it is loaded again. */
export function schemaMaxAgeMs(): number {
  return Math.max(1, vscode.workspace.getConfiguration().get<number>(SCHEMA_MAX_AGE_SETTING, DEFAULT_SCHEMA_MINUTES)) * 60_000;
}
