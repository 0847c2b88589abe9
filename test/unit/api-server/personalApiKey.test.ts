import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { errorBody, get, mainProject } from './helpers';

describe('local API: GET /api/personal_api_keys/@current/', () => {
  let api: LocalApi;
  let older: LocalApi;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    older = await startLocalApi({ seed: 'minimal', currentKeyEndpoint: false });
  });
  after(() => Promise.all([api.close(), older.close()]));

  test('answers the calling key as PostHog\'s serializer shows it, without its value', async () => {
    const answer = await get(api, '/api/personal_api_keys/@current/', { key: api.keys.readOnly });
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.json).sort(), [
      'created_at', 'id', 'label', 'last_rolled_at', 'last_used_at', 'mask_value', 'scoped_organizations', 'scoped_teams', 'scopes', 'user_id', 'value',
    ]);
    assert.equal(answer.json.value, null);
    assert.equal(answer.json.mask_value, `${api.keys.readOnly.slice(0, 4)}...${api.keys.readOnly.slice(-4)}`);
    assert.ok(!answer.text.includes(api.keys.readOnly), 'the key itself is never in the answer');
    assert.ok(answer.json.scopes.includes('query:read'));
    assert.deepEqual([answer.json.scoped_teams, answer.json.scoped_organizations], [[], []]);
    assert.equal(answer.json.user_id, api.store.mainUser.id);
  });

  test('shows a project-limited key\'s projects, and needs no scope', async () => {
    const { projectId } = mainProject(api);
    assert.deepEqual((await get(api, '/api/personal_api_keys/@current/', { key: api.keys.oneProject })).json.scoped_teams, [projectId]);
    const notebooksOnly = await get(api, '/api/personal_api_keys/@current/', { key: api.keys.notebooksOnly });
    assert.deepEqual([notebooksOnly.status, notebooksOnly.json.scopes], [200, ['notebook:write']]);
    const legacy = api.createKey({ scopes: [] });
    assert.deepEqual((await get(api, '/api/personal_api_keys/@current/', { key: legacy })).json.scopes, ['*'], 'a key without scopes (full access here) shows *');
  });

  test('a personal key may read only itself; a bad key is 401; older servers answer 404', async () => {
    const other = await get(api, '/api/personal_api_keys/0b1c2d3e-0000-4000-8000-000000000000/');
    assert.deepEqual([other.status, other.json], [403, errorBody('authentication_error', 'permission_denied', 'This action does not support personal API key access')]);
    assert.equal((await get(api, '/api/personal_api_keys/')).status, 403);
    assert.equal((await get(api, '/api/personal_api_keys/@current/', { key: 'phx_unknown' })).status, 401);
    assert.equal((await get(older, '/api/personal_api_keys/@current/')).status, 404);
  });
});
