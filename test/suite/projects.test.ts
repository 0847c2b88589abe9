import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { QuickPickItem } from 'vscode';
import { SETTINGS_DOCUMENT_NAME } from '../../src/projects/projectSettingsDocument';
import { serializeSettings } from '../../src/projects/settingsText';
import { NotebookNode } from '../../src/notebooks/lists/notebookNodes';
import { type ExplorerNode, OrganizationNode, ProjectNode } from '../../src/tree/nodes';
import { type LocalApi, startLocalApi } from '../api-server';
import { ExplorerHarness, labelOf } from './support/explorerHarness';
import { runnerSecrets } from './support/runnerContext';
import { RecordingEnv } from './support/scriptedWindow';

const FS_SCHEME = 'posthog-test-projects';

/**
 * The project commands over the explorer harness, against a local API of their own started in the
 * extension host (so that creating and deleting projects leaves the shared one alone, and so that the
 * actions PostHog refuses to personal API keys can be allowed for the happy paths).
 */
class ProjectsHarness {
  readonly env = new RecordingEnv();
  readonly explorer = new ExplorerHarness(runnerSecrets(), { scheme: FS_SCHEME, env: this.env });

  constructor(readonly api: LocalApi) {}

  /** Answers for multi-select quick picks: the labels to leave ticked. */
  get manyAnswers() {
    return this.window.manyAnswers;
  }

  get settings() {
    return this.explorer.projects.settings;
  }

  get documents() {
    return this.explorer.documents;
  }

  get lifecycle() {
    return this.explorer.projects.lifecycleCommands;
  }

  get deletion() {
    return this.explorer.projects.deletionCommands;
  }

  get settingsCommands() {
    return this.explorer.projects.settingsCommands;
  }

  get ingestion() {
    return this.explorer.projects.ingestionCommands;
  }

  /** The projects the commands selected in the explorer, by label. */
  get revealed(): string[] {
    return this.window.revealed.map((node) => labelOf(this.explorer.tree.getTreeItem(node as ExplorerNode)));
  }

  get window() {
    return this.explorer.window;
  }

  async signIn(apiKey = this.api.keys.all): Promise<void> {
    this.window.pick('Self-hosted').type(this.api.url).type(apiKey);
    assert.ok(await this.explorer.connectionCommands.signIn(), 'signed in');
    this.window.messages.length = 0;
    this.window.prompts.length = 0;
  }

  organization(name = 'Hedgebox Inc.') {
    const found = this.api.store.organizations.find((organization) => organization.name === name);
    assert.ok(found, name);
    return found;
  }

  async organizationNode(name = 'Hedgebox Inc.'): Promise<OrganizationNode> {
    const node = await this.explorer.child(name);
    assert.ok(node instanceof OrganizationNode);
    return node;
  }

  async projectNode(name: string, organization = 'Hedgebox Inc.'): Promise<ProjectNode> {
    (await this.organizationNode(organization)).invalidate();
    const node = await this.explorer.child(organization, name);
    assert.ok(node instanceof ProjectNode);
    return node;
  }

  /** A fresh project to change or delete. */
  async scratchProject(name: string): Promise<ProjectNode> {
    this.api.store.createProject(this.organization().id, { name });
    return this.projectNode(name);
  }

  async projectNames(organization = 'Hedgebox Inc.'): Promise<string[]> {
    (await this.organizationNode(organization)).invalidate();
    return (await this.explorer.items(await this.organizationNode(organization))).map(({ item }) => labelOf(item));
  }

  writes() {
    return this.api.requests.filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`);
  }

  messages(severity?: 'info' | 'warning' | 'error'): string[] {
    return this.window.messages.filter((message) => !severity || message.severity === severity).map((message) => message.text);
  }

  async dispose(): Promise<void> {
    // Unsaved editors would ask "Save?" on closing: revert them first.
    for (const document of vscode.workspace.textDocuments.filter((open) => open.isDirty && open.uri.scheme === FS_SCHEME)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await this.explorer.dispose();
  }
}

async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function replaceInDocument(document: vscode.TextDocument, from: string, to: string): Promise<void> {
  const offset = document.getText().indexOf(from);
  assert.ok(offset >= 0, `"${from}" is in the document`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(offset), document.positionAt(offset + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

describe('Projects: create, rename, features, delete (local API in the extension host)', () => {
  let api: LocalApi;
  let harness: ProjectsHarness;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
  });
  after(() => api.close());
  beforeEach(async () => {
    api.store.settings.maxProjectsPerOrganization = null;
    api.store.settings.projectDeletion = 'scheduled';
    harness = new ProjectsHarness(api);
    await harness.signIn();
    api.clearRequests();
  });
  afterEach(() => harness.dispose());

  it('creates a project in an organization with a trimmed name; it appears in the tree and is revealed', async () => {
    harness.window.type('  Landing pages  ');
    const created = await harness.lifecycle.createProject(await harness.organizationNode());
    assert.equal(created?.name, 'Landing pages');
    assert.deepEqual(harness.writes(), [`POST /api/organizations/${harness.organization().id}/projects/`]);
    assert.ok((await harness.projectNames()).includes('Landing pages'));
    assert.deepEqual(harness.revealed, ['Landing pages']);
    assert.match(harness.messages('info')[0], /Created the project "Landing pages"/);
  });

  it('from the palette, asks for the organization first', async () => {
    harness.window.pick('Acme Analytics').type('Acme docs');
    const created = await harness.lifecycle.createProject();
    assert.equal(created?.name, 'Acme docs');
    assert.equal(api.store.getProject(created.id)?.organizationId, harness.organization('Acme Analytics').id);
    assert.deepEqual(harness.window.prompts[0].labels.slice(0, 2), ['Hedgebox Inc.', 'Acme Analytics']);
  });

  it('validates the name before sending: empty or over 200 characters', async () => {
    harness.window.type('   ');
    assert.equal(await harness.lifecycle.createProject(await harness.organizationNode()), undefined);
    harness.window.type('x'.repeat(201));
    assert.equal(await harness.lifecycle.createProject(await harness.organizationNode()), undefined);
    const [empty, long] = harness.window.prompts.filter((prompt) => prompt.kind === 'inputBox');
    assert.equal(empty.validation, 'The name must not be empty.');
    assert.match(long.validation ?? '', /at most 200 characters \(it has 201\)/);
    assert.deepEqual(harness.writes(), []);
  });

  it('a duplicate name (409) is said plainly, and another name can be chosen', async () => {
    harness.window.type('hedgebox').choose('Choose Another Name').type('Hedgebox 2');
    const created = await harness.lifecycle.createProject(await harness.organizationNode());
    assert.equal(created?.name, 'Hedgebox 2');
    assert.deepEqual(harness.messages('error'), [
      'There is already a project called "hedgebox" in this organization. Choose a different name.',
    ]);
  });

  it('the plan limit (403) is said plainly', async () => {
    api.store.settings.maxProjectsPerOrganization = api.store.projectsOf(harness.organization().id).length;
    harness.window.type('One too many');
    assert.equal(await harness.lifecycle.createProject(await harness.organizationNode()), undefined);
    assert.deepEqual(harness.messages('error'), [
      'Could not create the project: PostHog refused the request. You have reached the maximum limit of allowed projects for your current plan. Upgrade your plan to be able to create and manage more projects.',
    ]);
  });

  it('renames with the current name prefilled; the tree shows the new name', async () => {
    const node = await harness.scratchProject('Rename me');
    harness.window.type('Renamed');
    assert.equal((await harness.lifecycle.renameProject(node))?.name, 'Renamed');
    const names = await harness.projectNames();
    assert.ok(names.includes('Renamed') && !names.includes('Rename me'), names.join(', '));
    assert.equal(harness.writes().length, 1);
  });

  it('rename to a taken name is refused in plain words and nothing changes', async () => {
    const node = await harness.scratchProject('Unique one');
    harness.window.type('Hedgebox').choose(undefined);
    assert.equal(await harness.lifecycle.renameProject(node), undefined);
    assert.match(harness.messages('error')[0], /already a project called "Hedgebox"/);
    assert.ok((await harness.projectNames()).includes('Unique one'));
  });

  it('rename to a taken name in another case, with spaces: sent trimmed, PostHog\'s 409 shown word for word', async () => {
    const node = await harness.scratchProject('Another one');
    harness.window.type('  hedgebox  ').choose(undefined);
    assert.equal(await harness.lifecycle.renameProject(node), undefined);
    assert.deepEqual(harness.messages('error'), [
      'There is already a project called "hedgebox" in this organization. Choose a different name.',
    ]);
    assert.deepEqual(harness.writes(), [`PATCH /api/organizations/${harness.organization().id}/projects/${node.project.id}/`]);
    assert.equal(api.store.getProject(node.project.id)?.name, 'Another one');
  });

  it('toggles features: the current ones are ticked, and only the changed fields are sent', async () => {
    const node = await harness.scratchProject('Features');
    let offered: readonly QuickPickItem[] = [];
    harness.manyAnswers.push((items) => {
      offered = items;
      return [...items.filter((item) => item.picked && item.label !== 'Autocapture').map((item) => item.label), 'Heatmaps'];
    });
    await harness.settingsCommands.toggleProjectFeatures(node);
    assert.deepEqual(
      offered.filter((item) => item.picked).map((item) => item.label).sort(),
      ['Autocapture', 'Console logs in recordings', 'Network and performance capture'],
    );
    assert.equal(harness.writes().length, 1);
    const settings = api.store.getProject(node.project.id)!.settings;
    assert.equal(settings['autocapture_opt_out'], true);
    assert.equal(settings['heatmaps_opt_in'], true);
    const changes = api.store.activityFor('Team', node.project.id).flatMap((entry) => entry.detail?.changes?.map((change) => change.field) ?? []);
    assert.deepEqual(changes.sort(), ['autocapture_opt_out', 'heatmaps_opt_in']);
    assert.match(harness.messages('info')[0], /Autocapture: off, Heatmaps: on|Heatmaps: on.*Autocapture: off/);
  });

  it('toggling nothing sends nothing', async () => {
    const node = await harness.scratchProject('Unchanged features');
    harness.manyAnswers.push((items) => items.filter((item) => item.picked).map((item) => item.label));
    await harness.settingsCommands.toggleProjectFeatures(node);
    assert.deepEqual(harness.writes(), []);
    assert.deepEqual(harness.messages('info'), ['Nothing changed.']);
  });

  it('a project without events, where PostHog deletes it at once: a modal warning saying so, the exact name typed; it leaves the tree', async () => {
    api.store.settings.projectDeletion = 'at-once';
    const node = await harness.scratchProject('Doomed');
    harness.window.choose('Delete Project…').type('doomed');
    assert.equal(await harness.deletion.deleteProject(node), false, 'a wrong name keeps the box open (Escape)');
    assert.match(harness.window.prompts.at(-1)?.validation ?? '', /Type the project name exactly: Doomed/);
    assert.deepEqual(harness.writes(), []);

    harness.window.choose('Delete Project…').type('Doomed');
    assert.equal(await harness.deletion.deleteProject(node), true);
    assert.deepEqual(harness.writes(), [`DELETE /api/organizations/${harness.organization().id}/projects/${node.project.id}/`]);
    assert.ok(!(await harness.projectNames()).includes('Doomed'));
    const warning = harness.window.messages.find((message) => message.severity === 'warning');
    assert.match(warning?.detail ?? '', /This project has no events: PostHog may delete it at once\./);
    assert.match(warning?.detail ?? '', /A project with events is scheduled for deletion 48 hours later, and a project admin can cancel it until then/);
    assert.deepEqual(harness.messages('info'), ['Deleted the project "Doomed". PostHog removes its data in the background.']);
  });

  it('an older PostHog server deletes at once: the warning and the message say so', async () => {
    api.store.settings.projectDeletion = 'legacy';
    const node = await harness.scratchProject('Old server project');
    harness.window.choose('Delete Project…').type('Old server project');
    assert.equal(await harness.deletion.deleteProject(node), true);
    assert.match(harness.window.messages.find((message) => message.severity === 'warning')?.detail ?? '', /This PostHog server deletes a project at once: this cannot be undone\./);
    assert.deepEqual(harness.messages('info'), [
      'Deleted the project "Old server project". This PostHog server deletes projects at once; it removes the data in the background.',
    ]);
    assert.ok(!(await harness.projectNames()).includes('Old server project'));
  });

  it('cancelling the modal deletes nothing', async () => {
    const node = await harness.scratchProject('Kept');
    harness.window.choose(undefined);
    assert.equal(await harness.deletion.deleteProject(node), false);
    assert.deepEqual(harness.writes(), []);
  });

  it('Cancel Project Deletion where PostHog refuses personal API keys: says so and offers Open in PostHog', async () => {
    const node = await harness.scratchProject('Pending, key refused');
    api.store.addEvents(node.project.id, 1);
    api.store.deleteProject(api.store.getProject(node.project.id)!);
    harness.window.choose('Open in PostHog');
    assert.equal(await harness.deletion.cancelProjectDeletion(await harness.projectNode('Pending, key refused')), false);
    assert.deepEqual(harness.messages('warning'), [
      'PostHog does not let personal API keys cancel the deletion of "Pending, key refused". You can do it on the project settings page in PostHog.',
    ]);
    assert.deepEqual(harness.messages('error'), [], 'no raw error');
    assert.deepEqual(harness.env.opened, [`${api.url}/project/${node.project.id}/settings/project`]);
    assert.equal(api.store.getProject(node.project.id)?.pendingDeletion, true);
  });

  it('closes the settings editor of a deleted project', async () => {
    api.store.settings.projectDeletion = 'at-once';
    const node = await harness.scratchProject('Doomed with settings');
    const editor = await harness.settingsCommands.editProjectSettings(node);
    assert.ok(editor);
    const uri = editor.document.uri.toString();
    harness.window.choose('Delete Project…').type('Doomed with settings');
    assert.equal(await harness.deletion.deleteProject(node), true);
    const open = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter(
      (tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri,
    );
    assert.deepEqual(open, []);
  });

  it('a read-only key cannot create, rename or delete: the missing scope is named', async () => {
    await harness.explorer.connections.signOut(harness.explorer.store.list()[0]!.id);
    await harness.signIn(api.keys.readOnly);
    harness.window.type('Nope');
    await harness.lifecycle.createProject(await harness.organizationNode());
    const node = await harness.projectNode('Hedgebox');
    harness.window.type('Nope');
    await harness.lifecycle.renameProject(node);
    harness.window.choose('Delete Project…').type('Hedgebox');
    await harness.deletion.deleteProject(node);
    const errors = harness.messages('error');
    assert.equal(errors.length, 3, errors.join('\n'));
    for (const error of errors) assert.match(error, /lacks the scope 'project:write'/);
    assert.ok(api.store.projectsOf(harness.organization().id).some((project) => project.name === 'Hedgebox'));
  });
});

describe('Projects: a deletion PostHog schedules, and its cancellation (personal-key actions allowed)', () => {
  let api: LocalApi;
  let harness: ProjectsHarness;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
  });
  after(() => api.close());
  beforeEach(async () => {
    harness = new ProjectsHarness(api);
    await harness.signIn();
    api.clearRequests();
  });
  afterEach(() => harness.dispose());

  const item = (node: ExplorerNode) => harness.explorer.tree.getTreeItem(node);

  it('a project with events is scheduled 48 hours later: the tree marks it and keeps it browsable; Cancel Project Deletion brings it back', async () => {
    const node = await harness.scratchProject('Scheduled');
    api.store.addEvents(node.project.id, 3);
    harness.window.choose('Delete Project…').type('Scheduled');
    assert.equal(await harness.deletion.deleteProject(node), true);
    assert.match(harness.window.messages.find((message) => message.severity === 'warning')?.detail ?? '', /This project has events: it will be scheduled for deletion 48 hours from now\./);
    const [scheduled] = harness.messages('info');
    assert.match(scheduled ?? '', /^PostHog scheduled "Scheduled" for deletion at .+\. Until then it stays in PostHog, and a project admin can cancel: Cancel Project Deletion\.$/);

    const pending = await harness.projectNode('Scheduled');
    const shown = item(pending);
    assert.equal(shown.description, `#${node.project.id} · deleted in 2 days`);
    assert.equal((shown.iconPath as vscode.ThemeIcon).id, 'trash');
    assert.equal(shown.contextValue, 'project pendingDeletion');
    assert.ok(menuOffers('posthogExplorer.cancelProjectDeletion', shown.contextValue));
    assert.ok(!menuOffers('posthogExplorer.deleteProject', shown.contextValue), 'PostHog would answer "already being deleted"');
    assert.ok(!menuOffers('posthogExplorer.cancelProjectDeletion', item(await harness.projectNode('Hedgebox')).contextValue));
    assert.ok((await harness.explorer.items(pending)).length > 0, 'still browsable');

    api.clearRequests();
    assert.equal(await harness.deletion.cancelProjectDeletion(pending), true);
    assert.deepEqual(harness.writes(), [`POST /api/projects/${node.project.id}/cancel-deletion/`]);
    assert.equal(harness.messages('info').at(-1), 'Cancelled the deletion of "Scheduled". PostHog keeps the project and its data.');
    const restored = item(await harness.projectNode('Scheduled'));
    assert.equal(restored.contextValue, 'project');
    assert.equal((restored.iconPath as vscode.ThemeIcon).id, 'project');
  });

  it('from the palette, a titled pick of the projects pending deletion; PostHog\'s refusals in its words', async () => {
    assert.equal(await harness.deletion.cancelProjectDeletion(), false);
    assert.deepEqual(harness.messages('info'), ['No project of this connection is scheduled for deletion.']);

    const node = await harness.scratchProject('Pending from palette');
    api.store.addEvents(node.project.id, 1);
    api.store.deleteProject(api.store.getProject(node.project.id)!);
    await harness.explorer.tree.refresh();
    api.store.settings.cancelDeletionRefusal = 'temporal';
    harness.window.pick('Pending from palette');
    assert.equal(await harness.deletion.cancelProjectDeletion(), false);
    const pick = harness.window.prompts.find((prompt) => prompt.kind === 'quickPick');
    assert.equal(pick?.title, 'Cancel Project Deletion');
    assert.equal(pick?.placeHolder, 'Choose a project scheduled for deletion');
    assert.deepEqual(pick?.labels, ['Hedgebox Inc.', 'Pending from palette']);
    assert.deepEqual(harness.messages('error'), [
      'Could not cancel the deletion of "Pending from palette": PostHog did not accept the request. Project deletion could not be canceled. Please try again.',
    ]);
    harness.window.pick('Pending from palette');
    assert.equal(await harness.deletion.cancelProjectDeletion(), true);
    assert.equal(api.store.getProject(node.project.id)?.pendingDeletion, false);
    assert.equal(await harness.deletion.cancelProjectDeletion(await harness.projectNode('Pending from palette')), false);
    assert.equal(harness.messages('error').at(-1), 'Could not cancel the deletion of "Pending from palette": PostHog did not accept the request. This project is not pending deletion.');
  });
});

describe('Projects: settings document', () => {
  let api: LocalApi;
  let harness: ProjectsHarness;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
  });
  after(() => api.close());
  beforeEach(async () => {
    harness = new ProjectsHarness(api);
    await harness.signIn();
  });
  afterEach(() => harness.dispose());

  async function openSettings(name: string) {
    const node = await harness.scratchProject(name);
    const editor = await harness.settingsCommands.editProjectSettings(node);
    assert.ok(editor, harness.messages().join('\n'));
    api.clearRequests();
    return { node, document: editor.document };
  }

  it('opens the full project as JSON in the posthog file system, writable fields first', async () => {
    const { node, document } = await openSettings('Settings view');
    assert.equal(document.uri.scheme, FS_SCHEME);
    assert.equal(document.uri.path, `/${node.project.id}/${SETTINGS_DOCUMENT_NAME}`);
    assert.equal(document.languageId, 'json');
    const json = JSON.parse(document.getText());
    assert.equal(Object.keys(json)[0], 'name');
    assert.equal(json.readOnly.id, node.project.id);
    assert.equal(json.readOnly.api_token, api.store.getProject(node.project.id)?.api_token);
  });

  it('saving sends only the changed writable fields in one PATCH, then shows what PostHog has', async () => {
    const { node, document } = await openSettings('Settings save');
    await replaceInDocument(document, '"anonymize_ips": false', '"anonymize_ips": true');
    await replaceInDocument(document, '"timezone": "UTC"', '"timezone": "Asia/Tokyo"');
    assert.equal(await document.save(), true);
    assert.deepEqual(harness.writes(), [`PATCH /api/organizations/${harness.organization().id}/projects/${node.project.id}/`]);
    const stored = api.store.getProject(node.project.id)!;
    assert.equal(stored.settings['anonymize_ips'], true);
    assert.equal(stored.settings['timezone'], 'Asia/Tokyo');
    const changed = api.store.activityFor('Team', node.project.id).flatMap((entry) => entry.detail?.changes?.map((change) => change.field) ?? []);
    assert.deepEqual(changed.sort(), ['anonymize_ips', 'timezone']);
    // The clean editor reloads PostHog's answer (a new updated_at), so the next save diffs against it.
    const fresh = serializeSettings(await harness.explorer.connections.session(harness.explorer.store.list()[0]!.id).then((session) => session!.client.projects.get(harness.organization().id, node.project.id)));
    await eventually(() => document.getText() === fresh && !document.isDirty, 'the editor to reload the saved project');
    await replaceInDocument(document, '"anonymize_ips": true', '"anonymize_ips": false');
    assert.equal(await document.save(), true, 'a second save is not refused for the updated_at the server changed');
  });

  it('no longer shows slack_incoming_webhook, a field PostHog dropped', async () => {
    const { document } = await openSettings('Settings without Slack');
    assert.doesNotMatch(document.getText(), /slack_incoming_webhook/);
  });

  it('a duplicate name is refused by PostHog (409) and its message says so; the editor keeps the text', async () => {
    const { node } = await openSettings('Settings rename');
    const uri = harness.settingsCommands.settingsUri({ session: node.session, project: node.project });
    const text = new TextDecoder().decode(await harness.documents.readFile(uri)).replace('"name": "Settings rename"', '"name": " HEDGEBOX "');
    await assert.rejects(
      Promise.resolve(harness.documents.writeFile(uri, new TextEncoder().encode(text), { create: false, overwrite: true })),
      (error: Error) => {
        assert.equal(error.message, 'Not saved: There is already a project called "HEDGEBOX" in this organization. Choose a different name.');
        return true;
      },
    );
    assert.equal(api.store.getProject(node.project.id)?.name, 'Settings rename');
  });

  it('invalid JSON is refused with where: nothing is sent and the editor keeps the text', async () => {
    const { document } = await openSettings('Settings broken');
    await replaceInDocument(document, '"anonymize_ips": false,', '"anonymize_ips": false,,');
    const text = document.getText();
    assert.equal(await document.save(), false);
    assert.deepEqual(harness.writes(), []);
    assert.equal(document.getText(), text);
    assert.equal(document.isDirty, true);
  });

  it('a wrong type, an unknown field or an edited read-only field is refused, nothing is sent', async () => {
    for (const [index, [from, to]] of [
      ['"anonymize_ips": false', '"anonymize_ips": "yes"'],
      ['"anonymize_ips": false', '"anonymize_ips": false, "colour": "teal"'],
      ['"api_token": "', '"api_token": "phc_mine'],
    ].entries()) {
      const { document } = await openSettings(`Settings refused ${index}`);
      await replaceInDocument(document, from, to);
      assert.equal(await document.save(), false, to);
      assert.deepEqual(harness.writes(), [], to);
      assert.equal(document.isDirty, true);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('the refusal message says what and where (the provider error VS Code shows)', async () => {
    const { node } = await openSettings('Settings message');
    const uri = harness.settingsCommands.settingsUri({ session: node.session, project: node.project });
    const text = new TextDecoder().decode(await harness.documents.readFile(uri)).replace('"api_token": "', '"api_token": "x');
    const line = text.split('\n').findIndex((row) => row.includes('"api_token"')) + 1;
    await assert.rejects(
      Promise.resolve(harness.documents.writeFile(uri, new TextEncoder().encode(text), { create: false, overwrite: true })),
      (error: Error) => {
        assert.match(error.message, /^Not saved, nothing was sent to PostHog\./);
        assert.ok(error.message.includes(`Line ${line}, column 5: "api_token" is read-only and was changed`), error.message);
        return true;
      },
    );
    assert.deepEqual(harness.writes(), []);
  });

  it('the editor validates against the contributed JSON schema', async () => {
    const { document } = await openSettings('Settings schema');
    await replaceInDocument(document, '"anonymize_ips": false', '"anonymize_ips": "yes"');
    await eventually(
      () => vscode.languages.getDiagnostics(document.uri).some((diagnostic) => /boolean/i.test(diagnostic.message)),
      'a schema diagnostic for anonymize_ips',
      20_000,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});

describe('Projects: token, demo data, activity, browser', () => {
  describe('with PostHog\'s refusals of personal API keys', () => {
    let api: LocalApi;
    let harness: ProjectsHarness;
    before(async () => {
      api = await startLocalApi({ seed: 'minimal' });
      harness = new ProjectsHarness(api);
      await harness.signIn();
    });
    after(async () => {
      await harness.dispose();
      await api.close();
    });
    beforeEach(() => {
      harness.window.messages.length = 0;
      harness.env.opened.length = 0;
    });

    const refused: [string, (node: ProjectNode) => Promise<unknown>, string][] = [
      ['reset token', (node) => (harness.window.choose('Reset Token').choose('Open in PostHog'), harness.ingestion.resetProjectToken(node)), 'reset the project token'],
      ['demo data', (node) => (harness.window.choose('Open in PostHog'), harness.ingestion.checkDemoData(node)), 'check for demo data'],
      ['activity', (node) => (harness.window.choose('Open in PostHog'), harness.settingsCommands.showProjectActivity(node)), 'read the activity of "Hedgebox"'],
    ];
    for (const [name, run, action] of refused) {
      it(`${name}: says personal API keys are refused and offers Open in PostHog (the settings page)`, async () => {
        const node = await harness.projectNode('Hedgebox');
        assert.equal(await run(node), undefined);
        assert.equal(
          harness.messages('warning').at(-1),
          `PostHog does not let personal API keys ${action}. You can do it on the project settings page in PostHog.`,
        );
        assert.deepEqual(harness.messages('error'), [], 'no raw error');
        assert.deepEqual(harness.env.opened, [`${api.url}/project/${node.project.id}/settings/project`]);
      });
    }
  });

  describe('with personal-key actions allowed', () => {
    let api: LocalApi;
    let harness: ProjectsHarness;
    before(async () => {
      api = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
      harness = new ProjectsHarness(api);
      await harness.signIn();
    });
    after(async () => {
      await harness.dispose();
      await api.close();
    });
    beforeEach(() => {
      harness.window.messages.length = 0;
      harness.env.opened.length = 0;
      api.clearRequests();
    });

    it('reset token: a modal warning, then the new token with Copy', async () => {
      const node = await harness.scratchProject('Token reset');
      const old = api.store.getProject(node.project.id)!.api_token;
      harness.window.choose('Reset Token').choose('Copy');
      const token = await harness.ingestion.resetProjectToken(node);
      const now = api.store.getProject(node.project.id)!.api_token;
      assert.equal(token, now);
      assert.notEqual(now, old);
      assert.equal(harness.env.clipboard.text, now);
      assert.deepEqual(harness.messages(), [
        'Reset the project token of "Token reset"?',
        `New project token of "Token reset": ${now}`,
      ]);
    });

    it('reset token: cancelling the modal sends nothing', async () => {
      const node = await harness.projectNode('Hedgebox');
      harness.window.choose(undefined);
      assert.equal(await harness.ingestion.resetProjectToken(node), undefined);
      assert.deepEqual(harness.writes(), []);
    });

    it('copy token copies the project\'s api_token', async () => {
      const node = await harness.projectNode('Hedgebox');
      await harness.ingestion.copyProjectToken(node);
      assert.equal(harness.env.clipboard.text, api.store.getProject(node.project.id)!.api_token);
    });

    it('demo data: says whether it is being generated', async () => {
      const node = await harness.scratchProject('Demo data');
      assert.equal(await harness.ingestion.checkDemoData(node), false);
      api.store.getProject(node.project.id)!.generatingDemoData = true;
      assert.equal(await harness.ingestion.checkDemoData(node), true);
      assert.deepEqual(harness.messages('info'), [
        'PostHog is not generating demo data for "Demo data".',
        'PostHog is generating demo data for "Demo data".',
      ]);
    });

    it('activity: a read-only Markdown page of who changed what, and older pages on demand', async () => {
      const node = await harness.scratchProject('Activity');
      for (let index = 1; index <= 24; index++) {
        api.store.updateProject(api.store.getProject(node.project.id)!, { name: `Activity ${index}` });
      }
      const uri = await harness.settingsCommands.showProjectActivity(node);
      assert.ok(uri);
      const document = await vscode.workspace.openTextDocument(uri);
      assert.equal(document.languageId, 'markdown');
      assert.match(document.getText(), /^# Activity of Activity/);
      assert.match(document.getText(), /\*\*name\*\*: `Activity 23` → `Activity 24`/);
      assert.match(document.getText(), /Showing 20 of 25 entries/);
      assert.ok(!document.getText().includes('created'), 'the oldest entry is on the next page');
      await harness.settingsCommands.loadMoreActivity(uri);
      await eventually(() => document.getText().includes('Showing 25 of 25 entries'), 'the second page');
      assert.match(document.getText(), / created · /);
    });

    it('open in PostHog: organization, project and notebook pages', async () => {
      const organization = await harness.organizationNode();
      const project = await harness.projectNode('Hedgebox');
      const notebooks = await harness.explorer.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks');
      const [notebook] = await harness.explorer.items(notebooks);
      assert.ok(notebook.node instanceof NotebookNode);
      await harness.explorer.explorerCommands.openInBrowser(organization);
      await harness.explorer.explorerCommands.openInBrowser(project);
      await harness.explorer.explorerCommands.openInBrowser(notebook.node);
      const first = api.store.projectsOf(harness.organization().id)[0]!.id;
      assert.deepEqual(harness.env.opened, [
        `${api.url}/project/${first}/settings/organization`,
        `${api.url}/project/${project.project.id}`,
        `${api.url}/project/${project.project.id}/notebooks/${notebook.node.notebook.short_id}`,
      ]);
    });

    it('from the palette, the commands ask for the project', async () => {
      harness.window.pick('Marketing site');
      await harness.ingestion.copyProjectToken();
      const picked = harness.window.prompts.at(-1);
      assert.equal(picked?.title, 'Copy Project Token');
      assert.ok(picked?.labels.includes('Hedgebox Inc.'), 'grouped by organization');
      assert.equal(harness.env.clipboard.text, api.store.projectsOf(harness.organization().id).find((p) => p.name === 'Marketing site')!.api_token);
    });
  });
});

/** Whether the explorer's context menu shows the command on an item with this context value (its when clause). */
function menuOffers(command: string, contextValue: string | undefined): boolean {
  const manifest = vscode.extensions.getExtension('posthog-explorer.posthog-explorer')?.packageJSON as {
    contributes: { menus: Record<string, { command: string; when?: string }[]> };
  };
  return manifest.contributes.menus['view/item/context']
    .filter((entry) => entry.command === command)
    .some((entry) => {
      const pattern = /viewItem =~ \/(.+)\/$/.exec(entry.when ?? '')?.[1];
      assert.ok(pattern, entry.when);
      return new RegExp(pattern).test(contextValue ?? '');
    });
}

describe('Projects: what your membership level allows', () => {
  const ADMINS_ONLY = 'You need to be an organization admin or above to create new projects.';
  let api: LocalApi;
  let harness: ProjectsHarness;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    const acme = api.store.organizations.find((organization) => organization.name === 'Acme Analytics')!;
    acme.members.find((membership) => membership.userId === api.store.mainUser.id)!.level = 1;
  });
  after(() => api.close());
  beforeEach(async () => {
    harness = new ProjectsHarness(api);
    await harness.signIn();
    api.clearRequests();
  });
  afterEach(() => harness.dispose());

  const item = (node: ExplorerNode) => harness.explorer.tree.getTreeItem(node);

  it("a member's organization and projects offer neither New Project nor Delete Project; an admin's offer both", async () => {
    const member = item(await harness.organizationNode('Acme Analytics'));
    const owner = item(await harness.organizationNode('Hedgebox Inc.'));
    assert.equal(member.contextValue, 'organization cannotCreateProjects');
    assert.ok(!menuOffers('posthogExplorer.createProject', member.contextValue));
    assert.ok(menuOffers('posthogExplorer.createProject', owner.contextValue));
    const memberProject = item(await harness.projectNode('Acme Web', 'Acme Analytics'));
    const ownerProject = item(await harness.projectNode('Hedgebox'));
    assert.equal(memberProject.contextValue, 'project cannotDelete');
    assert.ok(!menuOffers('posthogExplorer.deleteProject', memberProject.contextValue));
    assert.ok(menuOffers('posthogExplorer.deleteProject', ownerProject.contextValue));
    assert.ok(menuOffers('posthogExplorer.renameProject', memberProject.contextValue), 'the other project commands stay');
  });

  it('from the palette, a member is refused plainly, in PostHog\'s words, and nothing is sent', async () => {
    harness.window.pick('Acme Analytics');
    assert.equal(await harness.lifecycle.createProject(), undefined);
    const organizations = harness.window.prompts[0]?.items ?? [];
    assert.equal(organizations.find((entry) => entry.label === 'Acme Analytics')?.description, 'only admins create projects here');
    assert.equal(organizations.find((entry) => entry.label === 'Hedgebox Inc.')?.description, undefined);

    harness.window.pick('Acme Web');
    assert.equal(await harness.deletion.deleteProject(), false);
    assert.deepEqual(harness.messages('error'), [
      `${ADMINS_ONLY} You are a member of "Acme Analytics": one of its admins can create the project, or let members create projects.`,
      'Could not delete "Acme Web": You don\'t have sufficient permissions in the project. Deleting a project needs admin rights in it, and you are a member of "Acme Analytics".',
    ]);
    assert.equal(harness.window.prompts.filter((prompt) => prompt.kind === 'inputBox').length, 0, 'no name asked, no confirmation');
    assert.deepEqual(harness.writes(), []);
  });

  it("where members may create projects, New Project is offered; PostHog's refusal is shown in its words", async () => {
    const acme = harness.organization('Acme Analytics');
    acme.membersCanCreateProjects = true;
    try {
      await harness.explorer.tree.refresh();
      const offered = item(await harness.organizationNode('Acme Analytics'));
      assert.equal(offered.contextValue, 'organization');
      harness.window.type('Member project');
      assert.equal(await harness.lifecycle.createProject(await harness.organizationNode('Acme Analytics')), undefined);
      assert.deepEqual(harness.messages('error'), [`Could not create the project: PostHog refused the request. ${ADMINS_ONLY}`], 'the plan lacks the entitlement');
      acme.availableFeatures = ['organization_invite_settings'];
      harness.window.type('Member project');
      assert.equal((await harness.lifecycle.createProject(await harness.organizationNode('Acme Analytics')))?.name, 'Member project');
    } finally {
      acme.membersCanCreateProjects = false;
      acme.availableFeatures = undefined;
    }
  });

  it("a member saving admin-only settings: PostHog's 403 is shown at each field it names, in its words", async () => {
    const node = await harness.projectNode('Acme Web', 'Acme Analytics');
    const uri = harness.settingsCommands.settingsUri({ session: node.session, project: node.project });
    const original = new TextDecoder().decode(await harness.documents.readFile(uri));
    const edited = original.replace('"name": "Acme Web"', '"name": "Acme Website"');
    const line = edited.split('\n').findIndex((row) => row.includes('"name"')) + 1;
    await assert.rejects(
      Promise.resolve(harness.documents.writeFile(uri, new TextEncoder().encode(edited), { create: false, overwrite: true })),
      (error: Error) => {
        assert.equal(error.message, `Not saved: Line ${line}, column 3: "name": Only project admins can modify these settings: name`);
        return true;
      },
    );
    assert.equal(api.store.getProject(node.project.id)?.name, 'Acme Web');
  });

  it("PostHog's delete refusals are shown in its words: a migration, the last project of a paying organization", async () => {
    const node = await harness.scratchProject('Hard to delete');
    api.store.settings.projectDeletionDisabled = true;
    try {
      harness.window.choose('Delete Project…').type('Hard to delete');
      assert.equal(await harness.deletion.deleteProject(node), false);
    } finally {
      api.store.settings.projectDeletionDisabled = false;
    }
    const lonely = api.store.addOrganization('Lonely Inc.', [{ userId: api.store.mainUser.id, level: 15 }]);
    lonely.hasActiveSubscription = true;
    api.store.createProject(lonely.id, { name: 'Only project' });
    await harness.explorer.tree.refresh();
    harness.window.choose('Delete Project…').type('Only project');
    assert.equal(await harness.deletion.deleteProject(await harness.projectNode('Only project', 'Lonely Inc.')), false);
    assert.deepEqual(harness.messages('error'), [
      'Could not delete "Hard to delete": PostHog did not accept the request. Project deletion is temporarily disabled during database migration. Please try again later.',
      'Could not delete "Only project": PostHog did not accept the request. Cannot delete the last project in an organization with an active subscription. Please cancel your subscription first in the billing page.',
    ]);
    assert.ok(api.store.getProject(node.project.id), 'still there');
  });
});
