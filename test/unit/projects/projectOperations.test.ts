import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ConflictError, PermissionDeniedError, PersonalApiKeyNotSupportedError, PostHogClient, MissingScopeError } from '../../../src/api';
import { activityMarkdown } from '../../../src/projects/activityMarkdown';
import { ProjectOperations } from '../../../src/projects/projectOperations';
import { PROJECT_SWITCHES, switchIsOn } from '../../../src/projects/projectSwitches';
import { serializeSettings } from '../../../src/projects/settingsText';
import { notebookUrl, organizationSettingsUrl, projectSettingsUrl, projectUrl } from '../../../src/catalog/webUrls';
import { type LocalApi, startLocalApi } from '../../api-server';

describe('ProjectOperations against the local API (personal-key actions allowed)', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let organizationId: string;
  let operations: ProjectOperations;

  before(async () => {
    api = await startLocalApi({ refusePersonalKeyActions: false });
    client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
    organizationId = api.store.organizations[0]!.id;
    operations = new ProjectOperations(client, organizationId);
  });
  after(async () => {
    await client.dispose();
    await api.close();
  });
  beforeEach(() => {
    api.store.settings.maxProjectsPerOrganization = null;
    api.clearRequests();
  });

  const writes = () => api.requests.filter((request) => request.method !== 'GET');

  test('creates a project with a trimmed name', async () => {
    const created = await operations.create('  Landing pages  ');
    assert.equal(created.name, 'Landing pages');
    assert.equal(api.store.getProject(created.id)?.organizationId, organizationId);
  });

  test('a duplicate name (any case) is a ConflictError in plain words', async () => {
    await operations.create('Checkout');
    const error = await operations.create('checkout').catch((caught: unknown) => caught);
    assert.ok(error instanceof ConflictError);
    assert.equal(error.userMessage, 'There is already a project called "checkout" in this organization. Choose a different name.');
  });

  test('the plan limit is a PermissionDeniedError that says so', async () => {
    api.store.settings.maxProjectsPerOrganization = api.store.projectsOf(organizationId).length;
    const error = await operations.create('One too many').catch((caught: unknown) => caught);
    assert.ok(error instanceof PermissionDeniedError);
    assert.match(error.userMessage, /maximum limit of allowed projects for your current plan/);
  });

  test('saving settings sends only the changed writable fields, in one PATCH', async () => {
    const original = await operations.get((await operations.create('Settings target')).id);
    const text = serializeSettings(original).replace('"anonymize_ips": false', '"anonymize_ips": true').replace('"timezone": "UTC"', '"timezone": "Europe/Berlin"');
    api.clearRequests();
    const result = await operations.saveSettings(original, text);
    assert.equal(result.status, 'saved');
    assert.deepEqual(writes().map((request) => `${request.method} ${request.path}`), [
      `PATCH /api/organizations/${organizationId}/projects/${original.id}/`,
    ]);
    const stored = api.store.getProject(original.id)!;
    assert.equal(stored.settings['anonymize_ips'], true);
    assert.equal(stored.settings['timezone'], 'Europe/Berlin');
    const activity = api.store.activityFor('Team', original.id, [String(original.id)]);
    const changedFields = activity.flatMap((entry) => entry.detail?.changes?.map((change) => change.field) ?? []);
    assert.deepEqual(changedFields.sort(), ['anonymize_ips', 'timezone']);
  });

  test('delete reads the project back: scheduled 48 hours later with events, gone at once or as an older server', async () => {
    const withEvents = (await operations.create('Deleted with events')).id;
    api.store.addEvents(withEvents, 2);
    const scheduled = await operations.delete(withEvents);
    assert.equal(scheduled.kind, 'scheduled');
    assert.ok(scheduled.kind === 'scheduled' && Date.parse(scheduled.scheduledAt) - Date.now() > 47 * 3_600_000);
    assert.deepEqual(scheduled.kind === 'scheduled' && scheduled.deletion.canCancel, true);
    const withoutEvents = (await operations.create('Deleted without events')).id;
    assert.equal((await operations.delete(withoutEvents)).kind, 'scheduled', 'an hour later, as at PostHog 3baaad06');
    try {
      api.store.settings.projectDeletion = 'at-once';
      assert.deepEqual(await operations.delete((await operations.create('Gone at once')).id), { kind: 'gone' });
      api.store.settings.projectDeletion = 'legacy';
      assert.deepEqual(await operations.delete((await operations.create('Gone, older server')).id), { kind: 'gone' });
    } finally {
      api.store.settings.projectDeletion = 'scheduled';
    }
    await operations.cancelDeletion(withEvents);
    assert.equal((await operations.get(withEvents)).is_pending_deletion, false);
  });

  test('a scheduled time already come is "being deleted"', async () => {
    const id = (await operations.create('Due now')).id;
    api.store.addEvents(id, 1);
    const outcome = await operations.delete(id, new Date(Date.now() + 49 * 3_600_000));
    assert.equal(outcome.kind, 'deleting');
  });

  test('refused or unchanged settings send nothing', async () => {
    const original = await operations.get(api.store.projectsOf(organizationId)[0]!.id);
    const refused = await operations.saveSettings(original, serializeSettings(original).replace('"id":', '"id": 1, "x":'));
    assert.equal(refused.status, 'refused');
    assert.equal((await operations.saveSettings(original, serializeSettings(original))).status, 'unchanged');
    assert.deepEqual(writes(), []);
  });

  test('switches send only what changed, and nothing when nothing did', async () => {
    const project = await operations.get((await operations.create('Switches')).id);
    const on = new Set(PROJECT_SWITCHES.filter((item) => switchIsOn(project, item)).map((item) => item.field));
    api.clearRequests();
    assert.deepEqual((await operations.setSwitches(project, on)).changed, {});
    assert.deepEqual(writes(), []);

    on.add('heatmaps_opt_in');
    on.delete('autocapture_opt_out'); // "Autocapture" unticked: opt out
    const { changed, project: updated } = await operations.setSwitches(project, on);
    assert.deepEqual(changed, { autocapture_opt_out: true, heatmaps_opt_in: true });
    assert.equal(writes().length, 1);
    assert.equal(updated.heatmaps_opt_in, true);
  });

  test('renames', async () => {
    const created = await operations.create('Old name');
    assert.equal((await operations.rename(created.id, ' New name ')).name, 'New name');
  });

  test('resets the token: a new phc_ token, and the project keeps it', async () => {
    const created = await operations.create('Token');
    const token = await operations.resetToken(created.id);
    assert.match(token, /^phc_/);
    assert.notEqual(token, created.api_token);
    assert.equal(api.store.getProject(created.id)?.api_token, token);
  });

  test('reports whether demo data is being generated', async () => {
    const created = await operations.create('Demo');
    assert.equal(await operations.isGeneratingDemoData(created.id), false);
    api.store.getProject(created.id)!.generatingDemoData = true;
    assert.equal(await operations.isGeneratingDemoData(created.id), true);
  });

  test('pages through activity, newest first, and renders who changed what', async () => {
    const created = await operations.create('Busy');
    for (let index = 0; index < 25; index++) {
      await operations.rename(created.id, `Busy ${index}`);
    }
    const first = await operations.activity(created.id, 1);
    assert.equal(first.entries.length, 20);
    assert.equal(first.total, 26);
    assert.equal(first.more, true);
    const second = await operations.activity(created.id, 2, first.entries.length);
    assert.equal(second.entries.length, 6);
    assert.equal(second.more, false);
    const markdown = activityMarkdown('Busy', [...first.entries, ...second.entries], first.total, false);
    assert.match(markdown, /\*\*name\*\*: `Busy 23` → `Busy 24`/);
    assert.ok(markdown.indexOf('Busy 24') < markdown.indexOf('`Busy 0`'), 'newest first');
    assert.match(markdown, /created/);
  });

  test('a project scheduled for deletion stays listed, its name taken', async () => {
    const created = await operations.create('Doomed');
    await operations.delete(created.id);
    const names = (await client.projects.listAll(organizationId)).map((project) => project.name);
    assert.ok(names.includes('Doomed'));
    assert.ok((await operations.create('doomed').catch((caught: unknown) => caught)) instanceof ConflictError);
  });

  test('a read-only key cannot write: MissingScopeError naming project:write', async () => {
    const readOnly = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.readOnly });
    try {
      const error = await new ProjectOperations(readOnly, organizationId).create('Nope').catch((caught: unknown) => caught);
      assert.ok(error instanceof MissingScopeError);
      assert.equal(error.scope, 'project:write');
    } finally {
      await readOnly.dispose();
    }
  });
});

describe('ProjectOperations against the local API as PostHog (personal keys refused)', () => {
  test('reset token, demo data and activity are PersonalApiKeyNotSupportedError', async () => {
    const api = await startLocalApi();
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
    try {
      const organizationId = api.store.organizations[0]!.id;
      const projectId = api.store.projectsOf(organizationId)[0]!.id;
      const operations = new ProjectOperations(client, organizationId);
      for (const call of [() => operations.resetToken(projectId), () => operations.isGeneratingDemoData(projectId), () => operations.activity(projectId, 1)]) {
        await assert.rejects(call(), PersonalApiKeyNotSupportedError);
      }
    } finally {
      await client.dispose();
      await api.close();
    }
  });
});

describe('web app URLs', () => {
  test('project, settings, notebook and organization pages', () => {
    assert.equal(projectUrl('https://us.posthog.com/', 2), 'https://us.posthog.com/project/2');
    assert.equal(projectSettingsUrl('https://eu.posthog.com', 2), 'https://eu.posthog.com/project/2/settings/project');
    assert.equal(notebookUrl('https://ph.example.com/base', 2, 'aB3dE6gH'), 'https://ph.example.com/base/project/2/notebooks/aB3dE6gH');
    assert.equal(organizationSettingsUrl('https://us.posthog.com', 5), 'https://us.posthog.com/project/5/settings/organization');
    assert.equal(organizationSettingsUrl('https://us.posthog.com'), 'https://us.posthog.com/settings/organization');
  });
});
