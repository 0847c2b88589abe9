import * as vscode from 'vscode';
import { AuthenticationError, normalizeBaseUrl, PostHogError } from '../api';
import { abortSignalFor, type EnvApi, type WindowApi } from '../workbench/window';
import type { ConnectionManager } from './connectionManager';
import { type Connection, connectionLabel } from './connectionStore';
import { apiKeysPageUrl, CLOUD_HOSTS, hostLabel } from './hosts';
import { checkApiKey, type KeyCheck, SCOPE_FEATURES } from './keyCheck';

interface HostItem extends vscode.QuickPickItem {
  readonly baseUrl?: string;
}

/**
 * Sign in: choose a host, paste a personal API key, and keep the key only once a real call
 * has accepted it. A key that works but lacks scopes is kept, with a word on what will not work.
 */
export class SignInFlow {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    private readonly env: Pick<EnvApi, 'openExternal'>,
  ) {}

  async run(existing?: Connection): Promise<Connection | undefined> {
    const baseUrl = existing?.baseUrl ?? (await this.pickHost());
    if (!baseUrl) {
      return undefined;
    }
    for (;;) {
      const apiKey = await this.askApiKey(baseUrl);
      if (!apiKey) {
        return undefined;
      }
      const check = await this.check(baseUrl, apiKey);
      if (check === 'retry') {
        continue;
      }
      if (!check) {
        return undefined;
      }
      const connection = await this.connections.signedIn(baseUrl, check.account, apiKey);
      // A key limited to some projects may not list them: show the ones PostHog named.
      for (const projectId of check.scopedProjects) {
        await this.connections.store.addProject(connection.id, projectId);
      }
      this.reportSignedIn(connection, check);
      return connection;
    }
  }

  private async pickHost(): Promise<string | undefined> {
    const items: HostItem[] = [
      ...CLOUD_HOSTS.map((host) => ({
        label: `$(cloud) ${host.label}`,
        description: new URL(host.baseUrl).host,
        baseUrl: host.baseUrl,
      })),
      { label: `$(server) ${vscode.l10n.t('Self-hosted…')}`, description: vscode.l10n.t('Your own PostHog instance') },
    ];
    const picked = await this.window.showQuickPick(items, {
      title: vscode.l10n.t('Sign In to PostHog (1/2)'),
      placeHolder: vscode.l10n.t('Where is your PostHog?'),
      ignoreFocusOut: true,
    });
    if (!picked) {
      return undefined;
    }
    return picked.baseUrl ?? this.askSelfHostedUrl();
  }

  private async askSelfHostedUrl(): Promise<string | undefined> {
    const url = await this.window.showInputBox({
      title: vscode.l10n.t('Sign In to PostHog: Self-hosted URL'),
      placeHolder: 'https://posthog.example.com',
      prompt: vscode.l10n.t('The address of your PostHog instance. It must use https, unless it is on this machine.'),
      ignoreFocusOut: true,
      validateInput: (value) => baseUrlProblem(value),
    });
    return url === undefined ? undefined : normalizeBaseUrl(url.trim());
  }

  private askApiKey(baseUrl: string): Thenable<string | undefined> {
    return this.window
      .showInputBox({
        title: vscode.l10n.t('Sign In to PostHog (2/2): {0}', hostLabel(baseUrl)),
        placeHolder: 'phx_…',
        prompt: vscode.l10n.t('Paste a personal API key. Create one at {0}', apiKeysPageUrl(baseUrl)),
        password: true,
        ignoreFocusOut: true,
        validateInput: apiKeyProblem,
      })
      .then((key) => key?.trim() || undefined);
  }

  /** The key check, or 'retry' when the user wants to try another key, or undefined to stop. */
  private async check(baseUrl: string, apiKey: string): Promise<KeyCheck | 'retry' | undefined> {
    const client = this.connections.createClient(baseUrl, apiKey);
    try {
      return await this.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Checking the key with {0}…', hostLabel(baseUrl)),
          cancellable: true,
        },
        (_progress, token) => checkApiKey(client, abortSignalFor(token)),
      );
    } catch (error) {
      const tryAgain = vscode.l10n.t('Try Again');
      const message =
        error instanceof AuthenticationError
          ? vscode.l10n.t('{0} refused the key: {1}', hostLabel(baseUrl), error.userMessage)
          : vscode.l10n.t(
              'Could not check the key with {0}: {1}',
              hostLabel(baseUrl),
              error instanceof PostHogError ? error.userMessage : String(error),
            );
      const choice = await this.window.showErrorMessage(message, tryAgain);
      return choice === tryAgain ? 'retry' : undefined;
    } finally {
      client.dispose();
    }
  }

  private reportSignedIn(connection: Connection, check: KeyCheck): void {
    const limited = !check.limitedToProjects
      ? ''
      : check.scopedProjects.length > 0
        ? ` ${vscode.l10n.t('The key is limited to some projects ({0}), so PostHog does not let it list organizations: the explorer shows those projects and the ones you add by id.', check.scopedProjects.join(', '))}`
        : ` ${vscode.l10n.t('The key is limited to some projects, so PostHog does not let it list organizations: the explorer shows your current project and the projects you add by id.')}`;
    if (check.missingScopes.length === 0) {
      void this.window.showInformationMessage(`${vscode.l10n.t('Signed in to {0}.', connectionLabel(connection))}${limited}`);
      return;
    }
    const consequences = check.missingScopes.map((scope) => `${scope}: ${SCOPE_FEATURES[scope] ?? scope}`).join('; ');
    const createKey = vscode.l10n.t('Create a Key');
    void this.window
      .showWarningMessage(
        `${vscode.l10n.t('Signed in to {0}, but the key lacks some scopes ({1}).', connectionLabel(connection), consequences)}${limited}`,
        createKey,
      )
      .then((choice) => {
        if (choice === createKey) {
          void this.env.openExternal(vscode.Uri.parse(apiKeysPageUrl(connection.baseUrl)));
        }
      });
  }
}

function baseUrlProblem(value: string): string | undefined {
  if (!value.trim()) {
    return vscode.l10n.t('Enter the address of your PostHog, e.g. https://posthog.example.com');
  }
  try {
    normalizeBaseUrl(value.trim());
    return undefined;
  } catch (error) {
    return error instanceof PostHogError ? error.userMessage : String(error);
  }
}

function apiKeyProblem(value: string): string | vscode.InputBoxValidationMessage | undefined {
  const key = value.trim();
  if (!key) {
    return vscode.l10n.t('Paste your personal API key.');
  }
  if (/\s/.test(key)) {
    return vscode.l10n.t('An API key has no spaces.');
  }
  if (!key.startsWith('phx_')) {
    return {
      message: vscode.l10n.t('PostHog personal API keys start with phx_. Project tokens (phc_) cannot read data.'),
      severity: vscode.InputBoxValidationSeverity.Warning,
    };
  }
  return undefined;
}
