import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConnectionSession, SecretStore } from '../../../src/connections';
import { type Features, registerFeatures } from '../../../src/features';
import { createServices, type Services } from '../../../src/services';
import type { ExplorerNode } from '../../../src/tree';
import type { WorkbenchRegistry } from '../../../src/workbench/commands';
import type { EnvApi, WindowApi } from '../../../src/workbench/window';
import { MemoryState } from '../../support/memoryStores';
import { allScopesKey, apiUrl } from './localApi';
import { RecordingEnv, ScriptedWindow } from './scriptedWindow';

export interface HarnessOptions {
  /** The `posthog` file system's scheme: each live harness needs its own. */
  readonly scheme?: string;
  /** The window seam the features get; by default the ScriptedWindow's. */
  readonly window?: (scripted: ScriptedWindow) => WindowApi;
  readonly env?: EnvApi;
  /** The extension's folder (the events panel loads its script from there). */
  readonly extensionUri?: vscode.Uri;
  /** The extension's storage folder; by default a new one under the temporary folder. */
  readonly storageUri?: vscode.Uri;
  /** The extension's global state; by default an empty one (pass another harness's to play a window reload). */
  readonly state?: MemoryState;
  /**
   * Open notebooks follow PostHog's stream, as in the extension. By default tests look for changes by hand
   * (files.pollOpenNotebooks), at the moments they choose.
   */
  readonly liveNotebooks?: boolean;
}

/** Commands and panel serializers the features register, kept here: the installed extension owns the real ids. */
export class RecordingRegistry implements WorkbenchRegistry {
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();

  registerCommand(id: string, run: (...args: unknown[]) => unknown): vscode.Disposable {
    this.commands.set(id, run);
    return new vscode.Disposable(() => this.commands.delete(id));
  }

  registerWebviewPanelSerializer(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  setContext(): void {}

  /** Runs the recorded command, as VS Code runs the registered one. */
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const command = this.commands.get(id);
    if (!command) throw new Error(`No command ${id} is registered`);
    return command(...args);
  }
}

/** The demo data's project the notebook suites write in. */
export const DEMO_ORGANIZATION = 'Hedgebox Inc.';
export const DEMO_PROJECT = 'Marketing site';

/** A harness signed in to the local API, and a project of its demo data. */
export interface SignedInProject {
  harness: ExplorerHarness;
  session: ConnectionSession;
  projectId: number;
}

let harnesses = 0;

/**
 * The extension as extension.ts builds it (createServices, then every feature's entry point), with
 * prompts answered by a ScriptedWindow, commands recorded instead of registered, and the file system
 * under a scheme of its own.
 */
export class ExplorerHarness implements vscode.Disposable {
  readonly state: MemoryState;
  readonly window = new ScriptedWindow();
  readonly log = vscode.window.createOutputChannel('PostHog Explorer Tests', { log: true });
  readonly registry = new RecordingRegistry();
  readonly env = new RecordingEnv();
  readonly services: Services;
  /** Every feature, registered from the extension's own list (src/features.ts). */
  readonly features: Features;

  constructor(
    readonly secrets: SecretStore,
    options: HarnessOptions = {},
  ) {
    this.state = options.state ?? new MemoryState();
    this.services = createServices({
      log: this.log,
      state: this.state,
      secrets,
      extensionUri: options.extensionUri ?? vscode.Uri.file(__dirname),
      storageUri: options.storageUri ?? vscode.Uri.file(path.join(os.tmpdir(), 'posthog-explorer-tests', `storage-${process.pid}-${harnesses + 1}`)),
      window: options.window?.(this.window) ?? this.window.api,
      env: options.env ?? this.env,
      registry: this.registry,
      scheme: options.scheme ?? `posthog-test-${++harnesses}`,
    });
    this.features = registerFeatures(this.services);
    // Unless live, tests poll open notebooks by hand (files.pollOpenNotebooks), at the moments they choose.
    this.notebooks.files.setPollInterval(0);
    this.notebooks.sessions.setLiveMode(options.liveNotebooks ? 'stream' : 'poll');
  }

  get explorer() {
    return this.features.explorer;
  }

  get notebooks() {
    return this.features.notebooks;
  }

  get events() {
    return this.features.events;
  }

  get projects() {
    return this.features.projects;
  }

  get store() {
    return this.services.store;
  }

  get connections() {
    return this.services.connections;
  }

  get tree() {
    return this.services.tree;
  }

  get documents() {
    return this.services.documents;
  }

  get deleted() {
    return this.notebooks.deleted;
  }

  get connectionCommands() {
    return this.features.connections.commands;
  }

  get explorerCommands() {
    return this.explorer.commands;
  }

  /** Signs in to the test host's local API as a person would (Self-hosted, its URL, the key). */
  signInToLocalApi(key = allScopesKey()) {
    this.window.pick('Self-hosted').type(apiUrl()).type(key);
    return this.connectionCommands.signIn();
  }

  /** Signs in to the local API and finds a project of its demo data by its organization's name and its own. */
  async signInToProject(organizationName = DEMO_ORGANIZATION, projectName = DEMO_PROJECT): Promise<SignedInProject> {
    const connection = await this.signInToLocalApi();
    assert.ok(connection, 'signed in');
    const session = await this.connections.session(connection.id);
    assert.ok(session, 'a session');
    const organization = (await session.model.organizations()).find((entry) => entry.name === organizationName);
    assert.ok(organization, organizationName);
    const project = (await session.model.projects(organization.id)).find((entry) => entry.name === projectName);
    assert.ok(project, projectName);
    return { harness: this, session, projectId: project.id };
  }

  /** Runs a command as VS Code would: by its id, with the arguments a menu or the palette passes. */
  run(id: string, ...args: unknown[]): Promise<unknown> {
    const command = this.registry.commands.get(id);
    if (!command) {
      throw new Error(`No command ${id} is registered`);
    }
    return Promise.resolve(command(...args));
  }

  async items(node?: ExplorerNode): Promise<{ node: ExplorerNode; item: vscode.TreeItem }[]> {
    const children = await this.tree.getChildren(node);
    return children.map((child) => ({ node: child, item: this.tree.getTreeItem(child) }));
  }

  /** Follows labels down the tree, e.g. child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'). */
  async child(...labels: string[]): Promise<ExplorerNode> {
    let node: ExplorerNode | undefined;
    for (const label of labels) {
      const items = await this.items(node);
      const found = items.find(({ item }) => labelOf(item) === label);
      if (!found) {
        throw new Error(`No "${label}" among ${items.map(({ item }) => `"${labelOf(item)}"`).join(', ')}`);
      }
      node = found.node;
    }
    if (!node) {
      throw new Error('child() needs at least one label');
    }
    return node;
  }

  /** Signs out of every connection, then stops the extension. */
  async dispose(): Promise<void> {
    for (const connection of this.store.list()) {
      await this.connections.signOut(connection.id);
    }
    this.close();
  }

  /** Stops the extension as a window reload does: its state, secrets and storage stay for the next one. */
  close(): void {
    for (const feature of Object.values(this.features).reverse()) {
      feature.dispose();
    }
    this.services.dispose();
    this.log.dispose();
  }
}

const EXTENSION_ID = 'posthog-explorer.posthog-explorer';

/** The installed extension's folder, where the panels load their scripts and styles from. */
export function installedExtensionUri(): vscode.Uri {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);
  return extension.extensionUri;
}

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

export function iconOf(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}
