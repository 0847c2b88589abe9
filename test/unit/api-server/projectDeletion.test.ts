import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, control, errorBody, get } from './helpers';

const HOUR_MS = 3_600_000;
const NOT_ADMIN = "You don't have sufficient permissions in the project.";

describe('local API: project deletion as PostHog schedules it', () => {
  let api: LocalApi;
  let clock: number;
  let orgId: string;
  let base: string;
  /** The seed's Hedgebox, which has ingested events. */
  let withEvents: number;
  let withoutEvents: number;

  beforeEach(async () => {
    clock = Date.parse('2026-03-02T10:00:00Z');
    api = await startLocalApi({ seed: 'minimal', now: () => new Date(clock), refusePersonalKeyActions: false, control: true });
    orgId = api.store.organizations[0]!.id;
    base = `/api/organizations/${orgId}/projects`;
    const hedgebox = api.store.projectsOf(orgId)[0]!;
    api.store.addEvents(hedgebox.id, 3);
    withEvents = hedgebox.id;
    withoutEvents = api.store.createProject(orgId, { name: 'Empty' }).id;
  });
  afterEach(() => api.close());

  const read = async (id: number) => get(api, `${base}/${id}/`);
  const cancel = (id: number, key?: string) => call(api, 'POST', `/api/projects/${id}/cancel-deletion/`, { key });
  const setMyLevel = (level: number) => {
    api.store.organizations[0]!.members.find((m) => m.userId === api.store.mainUser.id)!.level = level;
  };

  test('a project with events is scheduled 48 hours later: still readable, listed, its name taken; activity for Team and Project', async () => {
    const deleted = await call(api, 'DELETE', `${base}/${withEvents}/`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const project = (await read(withEvents)).json;
    assert.equal(project.is_pending_deletion, true);
    assert.equal(project.deletion_scheduled_at, new Date(clock + 48 * HOUR_MS).toISOString().replace('Z', '000Z'));
    assert.equal(project.can_cancel_deletion, true);
    const listed = (await get(api, `${base}/`)).json.results.find((p: { id: number }) => p.id === withEvents);
    assert.ok(listed, 'still listed');
    assert.ok(!('is_pending_deletion' in listed), 'list entries do not say so');
    assert.equal((await get(api, `/api/projects/${withEvents}/notebooks/`)).status, 200, 'still browsable');
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'hedgebox' } })).status, 409, 'the name still blocks a duplicate');
    const again = await call(api, 'DELETE', `${base}/${withEvents}/`);
    assert.deepEqual(again.json, errorBody('validation_error', 'invalid', 'This project is already being deleted.'));
    const entries = api.store.activity.filter((entry) => entry.item_id === String(withEvents) && entry.activity === 'deleted');
    assert.deepEqual(entries.map((entry) => entry.scope).sort(), ['Project', 'Team']);
  });

  test('without events: 1 hour later by default; at once or as an older server (no schedule, no cancel-deletion) on demand', async () => {
    assert.equal((await call(api, 'DELETE', `${base}/${withoutEvents}/`)).status, 204);
    assert.equal((await read(withoutEvents)).json.deletion_scheduled_at, new Date(clock + HOUR_MS).toISOString().replace('Z', '000Z'));

    assert.equal((await control(api, 'POST', 'settings', { projectDeletion: 'at-once' })).json.projectDeletion, 'at-once');
    const atOnce = api.store.createProject(orgId, { name: 'At once' }).id;
    assert.equal((await call(api, 'DELETE', `${base}/${atOnce}/`)).status, 204);
    assert.equal((await read(atOnce)).status, 404, 'gone');
    const scheduled = (await read(withEvents));
    assert.equal(scheduled.json.deletion_scheduled_at, null, 'a project never deleted has no schedule');

    api.store.settings.projectDeletion = 'legacy';
    const legacy = api.store.createProject(orgId, { name: 'Legacy' }).id;
    assert.equal((await call(api, 'DELETE', `${base}/${legacy}/`)).status, 204);
    assert.equal((await read(legacy)).status, 404);
    const fields = (await read(withEvents)).json;
    assert.ok(!('deletion_scheduled_at' in fields) && !('can_cancel_deletion' in fields), 'an older server has neither field');
    assert.equal((await call(api, 'DELETE', `${base}/${withEvents}/`)).status, 204);
    assert.equal((await read(withEvents)).status, 404, 'even with events');
    assert.equal((await cancel(withoutEvents)).status, 404, 'no cancel-deletion action');
  });

  test('cancel-deletion: 200 with the short body, back to normal, "restored" activity; deletable again', async () => {
    await call(api, 'DELETE', `${base}/${withEvents}/`);
    const cancelled = await cancel(withEvents);
    assert.equal(cancelled.status, 200);
    assert.deepEqual(Object.keys(cancelled.json).sort(), [
      'can_cancel_deletion', 'created_at', 'deletion_scheduled_at', 'id', 'is_pending_deletion', 'name', 'organization_id', 'product_description', 'tags',
    ]);
    assert.equal(cancelled.json.is_pending_deletion, false);
    assert.equal(cancelled.json.deletion_scheduled_at, null);
    const project = (await read(withEvents)).json;
    assert.equal(project.is_pending_deletion, false);
    assert.equal(project.can_cancel_deletion, false);
    const restored = api.store.activity.filter((entry) => entry.item_id === String(withEvents) && entry.activity === 'restored');
    assert.deepEqual(restored.map((entry) => entry.scope).sort(), ['Project', 'Team']);
    assert.equal((await call(api, 'DELETE', `${base}/${withEvents}/`)).status, 204, 'may be deleted again');
  });

  test("cancel-deletion's refusals: not pending, not a project admin, started, state changed, Temporal refused", async () => {
    assert.deepEqual((await cancel(withEvents)).json, errorBody('validation_error', 'invalid', 'This project is not pending deletion.'));
    await call(api, 'DELETE', `${base}/${withEvents}/`);
    setMyLevel(1);
    const member = await cancel(withEvents);
    assert.equal(member.status, 403);
    assert.deepEqual(member.json, errorBody('authentication_error', 'permission_denied', NOT_ADMIN));
    setMyLevel(15);
    await control(api, 'POST', 'settings', { cancelDeletionRefusal: 'race' });
    assert.equal((await cancel(withEvents)).json.detail, 'This project deletion can no longer be canceled. Refresh the page to see its current status.');
    api.store.settings.cancelDeletionRefusal = 'temporal';
    assert.equal((await cancel(withEvents)).json.detail, 'Project deletion could not be canceled. Please try again.');
    assert.equal((await read(withEvents)).json.is_pending_deletion, true, 'the schedule stays');

    clock += 48 * HOUR_MS;
    assert.equal((await read(withEvents)).json.can_cancel_deletion, false, 'started');
    assert.deepEqual((await cancel(withEvents)).json, errorBody('validation_error', 'invalid', 'This project deletion has already started.'));
    clock += 60_000;
    assert.equal((await read(withEvents)).status, 404, 'the deletion ran');
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Hedgebox' } })).status, 201, 'the name is free again');
  });

  test('cancel-deletion declares no scope: refused to personal API keys unless allowed', async () => {
    const strict = await startLocalApi({ seed: 'minimal' });
    try {
      const id = strict.store.projects[0]!.id;
      strict.store.addEvents(id, 1);
      await call(strict, 'DELETE', `/api/projects/${id}/`);
      const refused = await call(strict, 'POST', `/api/projects/${id}/cancel-deletion/`);
      assert.equal(refused.status, 403);
      assert.match(refused.json.detail, /does not support personal API key access/i);
    } finally {
      await strict.close();
    }
  });
});

describe('local API: admin-only project settings (validate_team_attrs)', () => {
  let api: LocalApi;
  let orgId: string;
  let base: string;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    const organization = api.store.organizations[0]!;
    orgId = organization.id;
    base = `/api/organizations/${orgId}/projects`;
    organization.members.find((m) => m.userId === api.store.mainUser.id)!.level = 1;
    organization.membersCanCreateProjects = true;
    organization.availableFeatures = ['organization_invite_settings'];
  });
  afterEach(() => api.close());

  test('a member creating a project with admin-only settings: 403 naming them, sorted; name, is_demo and member fields pass', async () => {
    const refused = await call(api, 'POST', `${base}/`, { body: { name: 'Mine', timezone: 'Europe/Paris', anonymize_ips: true, surveys_opt_in: true } });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied',
      'Only organization admins can set these settings on project creation: anonymize_ips, timezone'));
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Mine', surveys_opt_in: true } })).status, 201);
  });

  test('a member updating admin-only settings (the name included): 403 naming them; member fields pass', async () => {
    const id = api.store.projectsOf(orgId)[0]!.id;
    const refused = await call(api, 'PATCH', `${base}/${id}/`, { body: { name: 'Renamed', week_start_day: 1 } });
    assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied', 'Only project admins can modify these settings: name, week_start_day'));
    assert.equal((await call(api, 'PATCH', `${base}/${id}/`, { body: { session_recording_opt_in: true } })).status, 200);
  });
});
