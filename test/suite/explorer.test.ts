import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { DEFAULT_RETRY, LIST_ALL_PAGE_SIZE, PostHogClient } from '../../src/api';
import { NotebooksNode } from '../../src/notebooks/lists/notebookNodes';
import { OrganizationNode, ProjectNode } from '../../src/tree/nodes';
import { ExplorerHarness, iconOf, labelOf } from './support/explorerHarness';
import { allScopesKey, apiUrl, localApi, seededKeys } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

/** Signs the harness in to the local API through the real sign-in flow, as a self-hosted instance. */
async function signIn(harness: ExplorerHarness, apiKey: string, url = apiUrl()) {
  harness.window.pick('Self-hosted').type(url).type(apiKey);
  return harness.connectionCommands.signIn();
}

describe('Sign in', () => {
  let harness: ExplorerHarness;
  beforeEach(() => {
    harness = new ExplorerHarness(runnerSecrets());
  });
  afterEach(() => harness.dispose());

  it('keeps a good key in SecretStorage only, after checking it with the server', async () => {
    await localApi.clearRequests();
    const connection = await signIn(harness, allScopesKey());
    assert.ok(connection, 'signed in');
    assert.equal(await harness.store.getApiKey(connection.id), allScopesKey());
    assert.ok(!JSON.stringify([...harness.state.values]).includes(allScopesKey()), 'the key is not in state');
    assert.deepEqual(
      harness.window.messages.map((message) => message.severity),
      ['info'],
      JSON.stringify(harness.window.messages),
    );
    const checked = await localApi.requests();
    assert.ok(checked.some((request) => request.path === '/api/users/@me/'), 'the key was checked with a real call');
  });

  it('offers US Cloud, EU Cloud and self-hosted, with a title and a placeholder', async () => {
    harness.window.pick(undefined);
    assert.equal(await harness.connectionCommands.signIn(), undefined);
    const [hostPick] = harness.window.prompts;
    assert.ok(hostPick.title?.includes('Sign In to PostHog'));
    assert.ok(hostPick.placeHolder);
    assert.deepEqual(hostPick.labels.map((label) => label.replace(/\$\([a-z-]+\) /, '')), ['US Cloud', 'EU Cloud', 'Self-hosted…']);
  });

  it('refuses a bad key, says so, and keeps nothing', async () => {
    harness.window.choose(undefined);
    const connection = await signIn(harness, 'phx_this_key_does_not_exist');
    assert.equal(connection, undefined);
    const [error] = harness.window.messages;
    assert.equal(error.severity, 'error');
    assert.match(error.text, /refused the key/);
    assert.ok(!error.text.includes('phx_this_key_does_not_exist'), 'the key is not echoed');
    assert.equal(harness.store.list().length, 0);
  });

  it('lets the user try another key after a refusal', async () => {
    harness.window.pick('Self-hosted').type(apiUrl()).type('phx_wrong').choose('Try Again').type(allScopesKey());
    const connection = await harness.connectionCommands.signIn();
    assert.ok(connection);
    assert.equal(await harness.store.getApiKey(connection.id), allScopesKey());
  });

  it('keeps a key that lacks scopes and names what will not work', async () => {
    const key = await localApi.createKey(['user:read', 'organization:read', 'project:read', 'notebook:read']);
    const connection = await signIn(harness, key);
    assert.ok(connection);
    const warning = harness.window.messages.find((message) => message.severity === 'warning');
    assert.ok(warning, JSON.stringify(harness.window.messages));
    assert.match(warning.text, /query:read/);
    assert.match(warning.text, /events cannot be browsed/);
    assert.match(warning.text, /property_definition:read: HogQL completion suggests property names from recent events only/);
  });

  it('refuses a plain-http URL that is not on this machine, before anything is sent', async () => {
    await localApi.clearRequests();
    harness.window.pick('Self-hosted').type('http://posthog.example.com');
    assert.equal(await harness.connectionCommands.signIn(), undefined);
    const urlPrompt = harness.window.prompts[1];
    assert.match(urlPrompt.validation ?? '', /https/);
    assert.equal(harness.store.list().length, 0);
    assert.deepEqual(await localApi.requests(), []);
  });

  it('keeps two connections side by side, each under its own item', async () => {
    await signIn(harness, allScopesKey(), apiUrl());
    await signIn(harness, allScopesKey(), apiUrl().replace('127.0.0.1', 'localhost'));
    const roots = await harness.items();
    assert.equal(roots.length, 2);
    assert.ok(roots.every(({ item }) => item.contextValue === 'connection'));
    for (const { node } of roots) {
      const organizations = await harness.items(node);
      assert.ok(organizations.some(({ item }) => labelOf(item) === 'Hedgebox Inc.'));
    }
  });

  it('signs out one connection and forgets its key', async () => {
    const first = await signIn(harness, allScopesKey(), apiUrl());
    const second = await signIn(harness, allScopesKey(), apiUrl().replace('127.0.0.1', 'localhost'));
    assert.ok(first && second);
    await harness.connectionCommands.signOut({ connectionId: first.id });
    assert.deepEqual(harness.store.list().map((connection) => connection.id), [second.id]);
    assert.equal(await harness.store.getApiKey(first.id), undefined);
  });

  it('palette commands with no connection offer to sign in (through the window seam) and ask nothing else', async () => {
    await harness.explorerCommands.addOrganization();
    await harness.explorerCommands.addProject();
    await harness.explorerCommands.openInBrowser();
    await harness.connectionCommands.switchConnection();
    await harness.projects.lifecycleCommands.createProject();
    assert.equal(harness.window.signInOffers, 5);
    assert.deepEqual(harness.window.prompts, []);
  });

  it('adds an organization by id: the id is checked as typed, then with one read, and only then kept', async () => {
    const connection = await signIn(harness, allScopesKey());
    assert.ok(connection);
    const organization = (await harness.items()).map(({ node }) => node).find((node) => node instanceof OrganizationNode);
    assert.ok(organization instanceof OrganizationNode);
    harness.window.type('not-a-uuid');
    await harness.explorerCommands.addOrganization();
    assert.equal(harness.window.prompts.at(-1)?.validation, 'An organization id is a UUID like 01234567-89ab-cdef-0123-456789abcdef.');
    const unknown = '01234567-89ab-cdef-0123-456789abcdef';
    harness.window.type(unknown);
    await harness.explorerCommands.addOrganization();
    assert.match(harness.window.messages.at(-1)?.text ?? '', new RegExp(`^Could not open organization ${unknown}: `));
    assert.deepEqual(harness.store.addedOrganizations(connection.id), []);
    harness.window.type(` ${organization.organization.id} `);
    await harness.explorerCommands.addOrganization();
    assert.deepEqual(harness.store.addedOrganizations(connection.id), [organization.organization.id]);
  });
});

describe('Explorer tree', () => {
  let harness: ExplorerHarness;
  before(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    await signIn(harness, allScopesKey());
  });
  after(() => harness.dispose());

  it('shows organizations at the root when there is one connection', async () => {
    const roots = await harness.items();
    const labels = roots.map(({ item }) => labelOf(item));
    assert.deepEqual(labels.slice(0, 2), ['Hedgebox Inc.', 'Acme Analytics']);
    const [first] = roots;
    assert.equal(first.item.contextValue, 'organization');
    assert.equal(iconOf(first.item), 'organization');
    assert.equal(first.item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  });

  it('shows projects with their id and time zone, and a Markdown tooltip', async () => {
    const organization = await harness.child('Hedgebox Inc.');
    const projects = await harness.items(organization);
    const hedgebox = projects.find(({ item }) => labelOf(item) === 'Hedgebox');
    assert.ok(hedgebox);
    assert.ok(hedgebox.node instanceof ProjectNode);
    assert.equal(hedgebox.item.description, `#${hedgebox.node.project.id} · Europe/London`);
    assert.equal(hedgebox.item.contextValue, 'project');
    assert.ok(hedgebox.item.tooltip instanceof vscode.MarkdownString);
  });

  it('shows a project\'s notebooks, newest first, with who changed them last', async () => {
    const notebooks = await harness.items(await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'));
    assert.ok(notebooks.length >= 4);
    for (const { item } of notebooks) {
      assert.equal(item.contextValue, 'notebook');
      assert.equal(iconOf(item), 'notebook');
      assert.match(String(item.description), / · /);
    }
  });

  it('opens 5,000 notebooks in one go, with concurrent page requests', async () => {
    const organization = await harness.child('Hedgebox Inc.');
    const staging = (await harness.items(organization)).find(({ item }) => labelOf(item) === 'Hedgebox Staging');
    assert.ok(staging?.node instanceof ProjectNode);
    await localApi.addNotebooks(staging.node.project.id, 5_000);
    await harness.tree.refresh(staging.node);
    await localApi.clearRequests();
    const notebooks = await harness.items(await harness.child('Hedgebox Inc.', 'Hedgebox Staging', 'Notebooks'));
    assert.ok(notebooks.length >= 5_000, `${notebooks.length} notebooks`);
    const pages = (await localApi.requests()).filter((request) => request.path.endsWith('/notebooks/'));
    assert.equal(pages.length, Math.ceil(notebooks.length / LIST_ALL_PAGE_SIZE));
    assert.deepEqual(new Set(pages.map((page) => page.query.offset ?? '0')).size, pages.length, 'each page fetched once');
  });

  it('stops loading a long notebook list when its node is refreshed, and loads it afresh', async () => {
    const notebooksNode = await harness.child('Hedgebox Inc.', 'Hedgebox Staging', 'Notebooks');
    assert.ok(notebooksNode instanceof NotebooksNode);
    if ((await harness.items(notebooksNode)).length < 5_000) {
      await localApi.addNotebooks(notebooksNode.project.id, 5_000);
    }
    await localApi.setLatency(150);
    try {
      await harness.tree.refresh(notebooksNode);
      await localApi.clearRequests();
      const stale = harness.items(notebooksNode);
      await new Promise((resolve) => setTimeout(resolve, 250));
      await harness.tree.refresh(notebooksNode);
      assert.deepEqual(await stale, [], 'the stopped load shows nothing (VS Code asks again)');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const pages = (await localApi.requests()).filter((request) => request.path.endsWith('/notebooks/'));
      assert.ok(pages.length <= 5, `${pages.length} pages requested before and after the refresh, of ${Math.ceil(5_000 / LIST_ALL_PAGE_SIZE)}`);
    } finally {
      await localApi.setLatency(0);
    }
    const notebooks = await harness.items(notebooksNode);
    assert.ok(notebooks.length >= 5_000, 'loaded afresh');
  });

  it('sends each notebook filter to the server as the spec names it, and shows it on the Notebooks item', async () => {
    const project = await harness.child('Hedgebox Inc.', 'Hedgebox');
    assert.ok(project instanceof ProjectNode);
    harness.window
      .pick('Contains')
      .pick('Edit as Text')
      .type('recording:true')
      .pick('Done')
      .pick('Only mine')
      .pick('Modified after')
      .type('2020-01-01')
      .pick('Modified before')
      .type('2100-01-01')
      .pick('Apply');
    await harness.notebooks.listCommands.filterNotebooks(project);
    await localApi.clearRequests();
    const notebooksNode = await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks');
    await harness.items(notebooksNode);
    const request = (await localApi.requests()).find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request, 'the list was fetched with the filter');
    assert.deepEqual(
      { ...request.query, limit: undefined, offset: undefined },
      {
        contains: 'recording:true',
        user: 'true',
        date_from: '2020-01-01',
        date_to: '2100-01-01',
        limit: undefined,
        offset: undefined,
      },
    );
    const item = harness.tree.getTreeItem(notebooksNode);
    assert.equal(item.contextValue, 'notebooks filtered');
    assert.match(String(item.description), /contains recording:true/);

    harness.notebooks.listCommands.clearNotebookFilter(notebooksNode);
    assert.equal(harness.tree.getTreeItem(await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks')).contextValue, 'notebooks');
  });

  it('refuses a filter value it cannot send, and says what is wrong', async () => {
    const project = await harness.child('Hedgebox Inc.', 'Hedgebox');
    harness.window.prompts.length = 0;
    harness.window.pick('Modified after').type('yesterday').pick(undefined);
    await harness.notebooks.listCommands.filterNotebooks(project);
    const datePrompt = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.match(datePrompt?.validation ?? '', /"yesterday" is not a date/);
  });

  it('hides deleted notebooks, and shows them marked and restorable when asked', async () => {
    const notebooksNode = await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks');
    assert.ok(notebooksNode instanceof NotebooksNode);
    const [first] = await harness.items(notebooksNode);
    const { session, project } = notebooksNode;
    const shortId = (first.node as unknown as { notebook: { short_id: string } }).notebook.short_id;
    await session.client.notebooks.update(project.id, shortId, { deleted: true });
    await harness.deleted.add(session.connection.id, project.id, {
      shortId,
      title: labelOf(first.item),
      deletedAt: new Date().toISOString(),
    });
    await harness.tree.refresh(notebooksNode);
    assert.ok(!(await harness.items(notebooksNode)).some(({ item }) => labelOf(item) === labelOf(first.item)));

    harness.notebooks.section.setShowDeleted(true);
    const shown = (await harness.items(notebooksNode)).find(({ item }) => item.contextValue === 'notebook deleted');
    assert.ok(shown, 'the deleted notebook shows');
    assert.equal(iconOf(shown.item), 'trash');

    await harness.notebooks.listCommands.restoreNotebook(shown.node);
    harness.notebooks.section.setShowDeleted(false);
    const restored = await harness.items(notebooksNode);
    assert.ok(restored.some(({ item }) => labelOf(item) === labelOf(first.item) && item.contextValue === 'notebook'));
    assert.deepEqual(harness.deleted.list(session.connection.id, project.id), []);
  });
});

describe('Explorer errors', () => {
  let harness: ExplorerHarness;
  beforeEach(() => {
    harness = new ExplorerHarness(runnerSecrets());
  });
  afterEach(() => harness.dispose());

  it('shows "Sign in again" under a connection whose key the server refuses', async () => {
    const key = await localApi.createKey(['*']);
    await signIn(harness, key);
    const connection = harness.store.list()[0];
    await harness.connections.signedIn(connection.baseUrl, connection.account, 'phx_revoked');
    const [item] = await harness.items();
    assert.equal(labelOf(item.item), 'Sign in again');
    assert.equal(item.item.command?.command, 'posthogExplorer.signIn');
  });

  it('names the missing scope where it is needed', async () => {
    await signIn(harness, await localApi.createKey(['user:read', 'organization:read', 'project:read']));
    harness.window.messages.length = 0;
    const [item] = await harness.items(await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'));
    assert.equal(labelOf(item.item), 'Missing scope notebook:read');
    assert.equal(iconOf(item.item), 'lock');
  });

  it('offers a retry when the server cannot be reached, and the retry works', async () => {
    await signIn(harness, allScopesKey());
    const organization = await harness.child('Hedgebox Inc.');
    await harness.tree.refresh(organization);
    // One attempt and every retry fail; the next load finds the server back.
    const { retries } = DEFAULT_RETRY;
    await localApi.injectFault({ path: '/organizations/[^/]+/projects/$', status: 503, times: retries + 1 });
    const [item] = await harness.items(organization);
    assert.match(labelOf(item.item), /^Could not reach/);
    assert.equal(item.item.command?.command, 'posthogExplorer.refresh');
    await harness.tree.refresh(organization);
    const projects = await harness.items(organization);
    assert.ok(projects.some(({ item: project }) => labelOf(project) === 'Hedgebox'));
  });
});

describe('A key limited to one project', () => {
  let harness: ExplorerHarness;
  before(async () => {
    harness = new ExplorerHarness(runnerSecrets());
  });
  after(() => harness.dispose());

  it('signs in, says the key is limited, and browses its project and notebooks under a note why organizations are missing', async () => {
    const connection = await signIn(harness, seededKeys().oneProject);
    assert.ok(connection, JSON.stringify(harness.window.messages));
    const [signedIn] = harness.window.messages;
    assert.equal(signedIn.severity, 'info', JSON.stringify(harness.window.messages));
    assert.match(signedIn.text, /limited to some projects/);

    const roots = await harness.items();
    assert.deepEqual(
      roots.map(({ item }) => labelOf(item)),
      ['Key limited to some projects: organizations are not listed', 'Hedgebox Inc.'],
    );
    const [note] = roots;
    assert.equal(iconOf(note.item), 'info');
    assert.match(String(note.item.tooltip), /PostHog does not let such a key list organizations/);
    assert.equal(note.item.command?.command, 'posthogExplorer.addProject');

    const projects = await harness.items(await harness.child('Hedgebox Inc.'));
    assert.deepEqual(projects.map(({ item }) => labelOf(item)), ['Hedgebox']);
    const notebooks = await harness.items(await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'));
    assert.ok(notebooks.length >= 4, notebooks.map(({ item }) => labelOf(item)).join(', '));
    assert.ok(notebooks.every(({ item }) => item.contextValue === 'notebook'));
  });

  it('a key limited to a project other than the current one: sign-in learns it from PostHog and shows it; Add Project by ID checks what it is given', async () => {
    const client = new PostHogClient({ baseUrl: apiUrl(), apiKey: allScopesKey() });
    const staging = (await client.projects.listAccessible()).results.find((project) => project.name === 'Hedgebox Staging');
    await client.dispose();
    assert.ok(staging);
    const response = await fetch(`${apiUrl()}/_control/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['*'], projects: [staging.id] }),
    });
    const { key } = (await response.json()) as { key: string };
    const other = new ExplorerHarness(runnerSecrets());
    try {
      assert.ok(await signIn(other, key));
      assert.match(other.window.messages[0]?.text ?? '', new RegExp(`limited to some projects \\(${staging.id}\\)`));
      const [note] = await other.items();
      assert.equal(labelOf(note.item), 'Key limited to some projects: organizations are not listed');
      assert.equal(note.item.command?.command, 'posthogExplorer.addProject');
      const target = note.item.command?.arguments?.[0];
      other.window.type('abc');
      await other.explorerCommands.addProject(target);
      assert.equal(other.window.prompts.at(-1)?.validation, 'A project id is a whole number, like 12345.');
      other.window.type(String(staging.id));
      await other.explorerCommands.addProject(target);
      assert.equal(other.window.prompts.at(-1)?.validation, undefined, JSON.stringify(other.window.messages));
      assert.deepEqual((await other.items()).map(({ item }) => labelOf(item)), ['Key limited to some projects: organizations are not listed', 'Hedgebox Inc.']);
      assert.deepEqual((await other.items(await other.child('Hedgebox Inc.'))).map(({ item }) => labelOf(item)), ['Hedgebox Staging']);
    } finally {
      await other.dispose();
    }
  });
});
