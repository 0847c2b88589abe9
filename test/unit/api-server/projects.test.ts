import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, errorBody, get, mainProject } from './helpers';

const SPEC_FIELDS = [
  'id', 'uuid', 'organization', 'api_token', 'app_urls', 'name', 'created_at', 'updated_at',
  'anonymize_ips', 'completed_snippet_onboarding', 'ingested_event', 'test_account_filters', 'test_account_filters_default_checked',
  'path_cleaning_filters', 'is_demo', 'timezone', 'data_attributes', 'person_display_name_properties', 'correlation_config',
  'autocapture_opt_out', 'autocapture_exceptions_opt_in', 'autocapture_exceptions_errors_to_ignore', 'capture_console_log_opt_in',
  'capture_performance_opt_in', 'session_recording_opt_in', 'session_recording_sample_rate',
  'session_recording_minimum_duration_milliseconds', 'session_recording_linked_flag',
  'session_recording_network_payload_capture_config', 'session_replay_config', 'effective_membership_level', 'access_control',
  'week_start_day', 'has_group_types', 'primary_dashboard', 'live_events_columns', 'recording_domains',
  'person_on_events_querying_enabled', 'inject_web_apps', 'extra_settings', 'modifiers', 'default_modifiers',
  'has_completed_onboarding_for', 'surveys_opt_in', 'heatmaps_opt_in', 'live_events_token',
];

describe('local API: projects', () => {
  let api: LocalApi;
  let orgId: string;
  let projectId: number;
  let base: string;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ orgId, projectId } = mainProject(api));
    base = `/api/organizations/${orgId}/projects`;
  });
  afterEach(() => api.close());

  test('create needs no fields and names projects "Default project", "Default project 2"', async () => {
    const first = await call(api, 'POST', `${base}/`, { body: {} });
    assert.equal(first.status, 201);
    assert.equal(first.json.name, 'Default project');
    assert.equal((await call(api, 'POST', `${base}/`, { body: {} })).json.name, 'Default project 2');
    for (const field of SPEC_FIELDS) assert.ok(field in first.json, `missing ${field}`);
    assert.match(first.json.api_token, /^phc_[A-Za-z0-9]{43}$/);
    assert.match(first.json.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(first.json.timezone, 'UTC');
    assert.equal(first.json.week_start_day, null);
    assert.equal(first.json.organization, orgId);
    assert.equal(first.json.effective_membership_level, 15);
  });

  test('names are trimmed, 1-200 characters, and unique in the organization ignoring case (409)', async () => {
    const created = await call(api, 'POST', `${base}/`, { body: { name: '  Data Lake  ' } });
    assert.equal(created.json.name, 'Data Lake');
    const duplicate = await call(api, 'POST', `${base}/`, { body: { name: 'hedgebox' } });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.json, errorBody('server_error', 'conflict', 'There is already a project called "hedgebox" in this organization. Choose a different name.'));
    const blank = await call(api, 'POST', `${base}/`, { body: { name: '   ' } });
    assert.deepEqual(blank.json, errorBody('validation_error', 'blank', 'This field may not be blank.', 'name'));
    const long = await call(api, 'POST', `${base}/`, { body: { name: 'x'.repeat(201) } });
    assert.deepEqual(long.json, errorBody('validation_error', 'max_length', 'Ensure this field has no more than 200 characters.', 'name'));
    const otherOrg = api.store.organizations[1]!.id;
    assert.equal((await call(api, 'POST', `/api/organizations/${otherOrg}/projects/`, { body: { name: 'Hedgebox' } })).status, 201);
  });

  test('an update applies the same name rules: 409 on a duplicate (trimmed, any case), blank and over 200 refused', async () => {
    const created = (await call(api, 'POST', `${base}/`, { body: { name: 'Side project' } })).json;
    const duplicate = await call(api, 'PATCH', `${base}/${created.id}/`, { body: { name: '  HEDGEBOX ' } });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.json, errorBody('server_error', 'conflict', 'There is already a project called "HEDGEBOX" in this organization. Choose a different name.'));
    const blank = await call(api, 'PATCH', `${base}/${created.id}/`, { body: { name: ' ' } });
    assert.deepEqual(blank.json, errorBody('validation_error', 'blank', 'This field may not be blank.', 'name'));
    const long = await call(api, 'PATCH', `${base}/${created.id}/`, { body: { name: 'y'.repeat(201) } });
    assert.deepEqual(long.json, errorBody('validation_error', 'max_length', 'Ensure this field has no more than 200 characters.', 'name'));
    const ownNameOtherCase = await call(api, 'PATCH', `${base}/${created.id}/`, { body: { name: ' side PROJECT ' } });
    assert.equal(ownNameOtherCase.status, 200);
    assert.equal(ownNameOtherCase.json.name, 'side PROJECT');
    assert.equal((await get(api, `${base}/${created.id}/`)).json.name, 'side PROJECT');
  });

  test('slack_incoming_webhook is no longer a field: PATCH ignores it and answers omit it', async () => {
    const patched = await call(api, 'PATCH', `${base}/${projectId}/`, { body: { slack_incoming_webhook: 'https://hooks.slack.com/x', timezone: 'Asia/Tokyo' } });
    assert.equal(patched.status, 200);
    assert.equal(patched.json.timezone, 'Asia/Tokyo');
    assert.ok(!('slack_incoming_webhook' in patched.json));
    assert.ok(!('slack_incoming_webhook' in (await get(api, `${base}/${projectId}/`)).json));
    assert.ok(!('slack_incoming_webhook' in (await call(api, 'POST', `${base}/`, { body: {} })).json));
  });

  const PLAN_LIMIT = 'You have reached the maximum limit of allowed projects for your current plan. Upgrade your plan to be able to create and manage more projects.';
  const ADMINS_ONLY = 'You need to be an organization admin or above to create new projects.';
  const setMyLevel = (level: number) => {
    api.store.organizations[0]!.members.find((m) => m.userId === api.store.mainUser.id)!.level = level;
  };

  test('a plan limit answers 403 with PostHog\'s text; a demo project does not count, but only one is allowed', async () => {
    api.store.settings.maxProjectsPerOrganization = 3;
    const answer = await call(api, 'POST', `${base}/`, { body: { name: 'One too many' } });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied', PLAN_LIMIT));
    api.store.settings.maxProjectsPerOrganization = 4;
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Demo', is_demo: true } })).status, 201);
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Fourth' } })).status, 201, 'the demo project is not counted');
    api.store.settings.maxProjectsPerOrganization = null;
    const secondDemo = await call(api, 'POST', `${base}/`, { body: { name: 'Another demo', is_demo: true } });
    assert.deepEqual(secondDemo.json, errorBody('authentication_error', 'permission_denied', PLAN_LIMIT));
  });

  test('without a plan limit, 2000 non-demo projects (pending deletion included) is the cap', async () => {
    api.store.addProjects(orgId, 2000 - api.store.projectsOf(orgId).length - 1);
    const last = (await call(api, 'POST', `${base}/`, { body: { name: 'Number 2000' } })).json;
    assert.equal(api.store.projectsOf(orgId).length, 2000);
    assert.equal((await call(api, 'DELETE', `${base}/${last.id}/`)).status, 204);
    const answer = await call(api, 'POST', `${base}/`, { body: { name: 'Number 2001' } });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied',
      "You have reached the maximum limit of 2000 projects per organization. Contact support if you'd like access to more projects."));
  });

  test('members may not create projects (before any plan limit), except demo ones or where the organization allows it', async () => {
    setMyLevel(1);
    api.store.settings.maxProjectsPerOrganization = 3;
    const refused = await call(api, 'POST', `${base}/`, { body: { name: 'Mine' } });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied', ADMINS_ONLY), 'not the plan limit: upgrading would not help');
    assert.equal((await call(api, 'POST', '/api/projects/', { body: { name: 'Mine' } })).json.detail, ADMINS_ONLY);
    api.store.settings.maxProjectsPerOrganization = null;
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Demo', is_demo: true } })).status, 201, 'a demo project needs membership only');
    const organization = api.store.organizations[0]!;
    organization.membersCanCreateProjects = true;
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Mine' } })).json.detail, ADMINS_ONLY, 'the toggle needs its entitlement');
    organization.availableFeatures = ['organization_invite_settings'];
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Mine' } })).status, 201);
    const listed = (await get(api, '/api/organizations/')).json.results[0];
    assert.equal(listed.membership_level, 1);
    assert.equal(listed.members_can_create_projects, true);
    setMyLevel(8);
    organization.membersCanCreateProjects = false;
    assert.equal((await call(api, 'POST', `${base}/`, { body: { name: 'Admin project' } })).status, 201, 'admins always may');
  });

  test('DELETE needs admin rights in the project: 403 for a member, before any other refusal', async () => {
    setMyLevel(1);
    const refused = await call(api, 'DELETE', `${base}/${projectId}/`);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied', "You don't have sufficient permissions in the project."));
    assert.equal((await get(api, `${base}/${projectId}/`)).status, 200, 'still there');
    api.store.settings.projectDeletionDisabled = true;
    assert.equal((await call(api, 'DELETE', `${base}/${projectId}/`)).status, 403);
  });

  test('DELETE refusals (400): deletion disabled during a migration, the last project of a paying organization', async () => {
    api.store.settings.projectDeletionDisabled = true;
    const disabled = await call(api, 'DELETE', `${base}/${projectId}/`);
    assert.deepEqual(disabled.json, errorBody('validation_error', 'invalid', 'Project deletion is temporarily disabled during database migration. Please try again later.'));
    api.store.settings.projectDeletionDisabled = false;
    const acme = api.store.organizations[1]!;
    acme.hasActiveSubscription = true;
    const only = api.store.projectsOf(acme.id)[0]!;
    const last = await call(api, 'DELETE', `/api/projects/${only.id}/`);
    assert.equal(last.status, 400);
    assert.deepEqual(last.json, errorBody('validation_error', 'invalid',
      'Cannot delete the last project in an organization with an active subscription. Please cancel your subscription first in the billing page.'));
    acme.hasActiveSubscription = false;
    assert.equal((await call(api, 'DELETE', `/api/projects/${only.id}/`)).status, 204);
  });

  test('PATCH changes only the given fields and validates types with attr', async () => {
    const patched = await call(api, 'PATCH', `${base}/${projectId}/`, { body: { timezone: 'Asia/Tokyo', week_start_day: 0, id: 999, api_token: 'phc_mine' } });
    assert.equal(patched.status, 200);
    assert.equal(patched.json.timezone, 'Asia/Tokyo');
    assert.equal(patched.json.week_start_day, 0);
    assert.equal(patched.json.id, projectId, 'read-only fields are ignored');
    assert.notEqual(patched.json.api_token, 'phc_mine');
    assert.equal(patched.json.name, 'Hedgebox');
    const cases: [object, string, string, string][] = [
      [{ name: true }, 'name', 'invalid', 'Not a valid string.'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', 'invalid_choice', '"Mars/Olympus_Mons" is not a valid choice.'],
      [{ week_start_day: 3 }, 'week_start_day', 'invalid_choice', '"3" is not a valid choice.'],
      [{ app_urls: 'https://x.io' }, 'app_urls', 'not_a_list', 'Expected a list of items but got type "str".'],
      [{ app_urls: ['https://ok.io', { url: 'x' }] }, 'app_urls__1', 'invalid', 'Not a valid string.'],
      [{ anonymize_ips: 'maybe' }, 'anonymize_ips', 'invalid', 'Must be a valid boolean.'],
      [{ session_recording_minimum_duration_milliseconds: 1.5 }, 'session_recording_minimum_duration_milliseconds', 'invalid', 'A valid integer is required.'],
      [{ is_demo: null }, 'is_demo', 'null', 'This field may not be null.'],
    ];
    for (const [body, attr, code, detail] of cases) {
      const answer = await call(api, 'PATCH', `${base}/${projectId}/`, { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(answer.json, errorBody('validation_error', code, detail, attr));
    }
    const nullable = await call(api, 'PATCH', `${base}/${projectId}/`, { body: { week_start_day: null, anonymize_ips: 'true', app_urls: ['https://a.io', null, ''] } });
    assert.equal(nullable.json.week_start_day, null);
    assert.equal(nullable.json.anonymize_ips, true);
    assert.deepEqual(nullable.json.app_urls, ['https://a.io'], 'empty entries are dropped');
  });

  test('list items carry the subset of fields and page with limit/offset', async () => {
    api.store.addProjects(orgId, 1000);
    const page = (await get(api, `${base}/?limit=250&offset=500`)).json;
    assert.equal(page.count, 1003);
    assert.equal(page.results.length, 250);
    assert.ok(page.next.endsWith(`${base}/?limit=250&offset=750`));
    assert.ok(page.previous.endsWith(`${base}/?limit=250&offset=250`));
    assert.deepEqual(Object.keys(page.results[0]).sort(), [
      'access_control', 'api_token', 'completed_snippet_onboarding', 'has_completed_onboarding_for', 'id', 'ingested_event',
      'is_demo', 'name', 'organization', 'project_id', 'timezone', 'uuid',
    ]);
    const defaults = (await get(api, `${base}/`)).json;
    assert.equal(defaults.results.length, 100, 'default limit is 100');
    const last = (await get(api, `${base}/?limit=250&offset=1000`)).json;
    assert.equal(last.next, null);
  });

  test('reset_token, is_generating_demo_data and activity (personal-key actions allowed)', async () => {
    await api.close();
    api = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    ({ orgId, projectId } = mainProject(api));
    base = `/api/organizations/${orgId}/projects`;
    const before = (await get(api, `${base}/${projectId}/`)).json.api_token;
    const reset = await call(api, 'PATCH', `${base}/${projectId}/reset_token/`, { body: {} });
    assert.equal(reset.status, 200);
    assert.match(reset.json.api_token, /^phc_[A-Za-z0-9]{43}$/);
    assert.notEqual(reset.json.api_token, before);
    assert.deepEqual((await get(api, `${base}/${projectId}/is_generating_demo_data/`)).json, { is_generating_demo_data: false });

    await call(api, 'PATCH', `${base}/${projectId}/`, { body: { name: 'Hedgebox Prod' } });
    const activity = (await get(api, `${base}/${projectId}/activity/?limit=2`)).json;
    assert.equal(activity.total_count, 3);
    assert.equal(activity.previous, null);
    assert.ok(activity.next.endsWith(`${base}/${projectId}/activity/?limit=2&page=2`));
    const [renamed, tokenReset] = activity.results;
    assert.equal(renamed.activity, 'updated');
    assert.equal(renamed.scope, 'Team');
    assert.equal(renamed.item_id, String(projectId));
    assert.equal(renamed.user.email, 'sam@hedgebox.net');
    assert.deepEqual(renamed.detail.changes, [{ type: 'Team', action: 'changed', field: 'name', before: 'Hedgebox', after: 'Hedgebox Prod' }]);
    assert.equal(renamed.detail.name, 'Hedgebox Prod');
    assert.equal(tokenReset.detail.changes[0].field, 'api_token');
    const page2 = (await get(api, `${base}/${projectId}/activity/?limit=2&page=2`)).json;
    assert.equal(page2.results[0].activity, 'created');
    assert.equal(page2.next, null);
    assert.ok(page2.previous.endsWith('page=1'));
  });

  test('root /api/projects/{id}/ routes reach the same project', async () => {
    const viaRoot = (await get(api, `/api/projects/${projectId}/`)).json;
    const viaOrg = (await get(api, `${base}/${projectId}/`)).json;
    assert.deepEqual(viaRoot, viaOrg);
  });
});
