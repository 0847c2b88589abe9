import * as vscode from 'vscode';
import {
  AuthenticationError,
  MissingScopeError,
  NetworkError,
  PostHogError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../api';
import { oneSafeLine } from '../common/text';
import { apiKeysPageUrl, type Connection } from '../connections';
import { COMMANDS } from '../workbench/commandIds';
import { type ExplorerNode, MessageNode, signInAgainNode } from './nodes';

/**
 * Errors live in the tree, where they happened, with the one action that helps:
 * sign in again, make a key with the missing scope, or retry.
 */
export function errorNode(parent: ExplorerNode | undefined, connection: Connection, error: unknown): MessageNode {
  const id = `${parent?.id ?? connection.id}:error`;
  const message = error instanceof PostHogError ? error.userMessage : String(error);
  if (error instanceof AuthenticationError) {
    return signInAgainNode(parent, connection, message);
  }
  if (error instanceof MissingScopeError) {
    return new MessageNode(parent, id, {
      label: vscode.l10n.t('Missing scope {0}', error.scope ?? ''),
      icon: 'lock',
      tooltip: vscode.l10n.t('{0} Create a key with this scope in PostHog.', message),
      command: {
        command: 'vscode.open',
        title: vscode.l10n.t('Open Personal API Keys'),
        arguments: [vscode.Uri.parse(apiKeysPageUrl(connection.baseUrl))],
      },
    });
  }
  const unreachable =
    error instanceof NetworkError || error instanceof TimeoutError || error instanceof ServerError || error instanceof RateLimitedError;
  return new MessageNode(parent, id, {
    label: unreachable
      ? vscode.l10n.t('Could not reach {0}. Retry', new URL(connection.baseUrl).host)
      : vscode.l10n.t('Could not load: {0}', oneSafeLine(message)),
    icon: unreachable ? 'debug-disconnect' : 'error',
    tooltip: vscode.l10n.t('{0} Click to retry.', message),
    command: { command: COMMANDS.refresh, title: vscode.l10n.t('Retry'), arguments: [parent] },
  });
}
