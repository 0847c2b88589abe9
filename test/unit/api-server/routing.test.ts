import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { startLocalApi, throwawayCertificate, type LocalApi } from '../../api-server';
import { call, errorBody, get, mainProject } from './helpers';

describe('local API: routing and error bodies', () => {
  let api: LocalApi;
  let projectId: number;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ projectId } = mainProject(api));
  });
  after(() => api.close());

  test('paths work with and without the trailing slash', async () => {
    const withSlash = await get(api, `/api/projects/${projectId}/notebooks/`);
    const without = await get(api, `/api/projects/${projectId}/notebooks`);
    assert.equal(withSlash.status, 200);
    assert.deepEqual(without.json.results, withSlash.json.results);
  });

  test('an unknown route is 404 with the error body', async () => {
    for (const path of ['/api/nothing-here/', `/api/projects/${projectId}/insights/`, '/']) {
      const answer = await get(api, path);
      assert.equal(answer.status, 404, path);
      assert.deepEqual(answer.json, errorBody('invalid_request', 'not_found', 'Not found.'));
    }
  });

  test('an unknown project or organization is 404', async () => {
    assert.equal((await get(api, '/api/projects/999999/notebooks/')).status, 404);
    assert.equal((await get(api, '/api/projects/abc/notebooks/')).status, 404);
    assert.equal((await get(api, '/api/organizations/00000000-0000-0000-0000-000000000000/projects/')).status, 404);
  });

  test('@current addresses the current project', async () => {
    const answer = await get(api, '/api/projects/@current/notebooks/');
    assert.equal(answer.status, 200);
    assert.equal(answer.json.count, 6);
  });

  test('a method the route does not have is 405 with the error body', async () => {
    const answer = await call(api, 'PUT', `/api/projects/${projectId}/notebooks/`, { body: {} });
    assert.equal(answer.status, 405);
    assert.deepEqual(answer.json, errorBody('invalid_request', 'method_not_allowed', 'Method "PUT" not allowed.'));
    const post = await call(api, 'POST', `/api/projects/${projectId}/events/`, { body: {} });
    assert.equal(post.json.detail, 'Method "POST" not allowed.');
  });

  test('DELETE on a notebook is 405 with an empty body', async () => {
    const notebook = api.store.notebooksOf(projectId)[0]!;
    const answer = await call(api, 'DELETE', `/api/projects/${projectId}/notebooks/${notebook.short_id}/`);
    assert.equal(answer.status, 405);
    assert.equal(answer.text, '');
    assert.equal(answer.headers.get('content-length'), '0');
    assert.ok(api.store.getNotebook(projectId, notebook.short_id), 'the notebook is still there');
  });

  test('invalid JSON is 400 parse_error', async () => {
    const answer = await call(api, 'POST', `/api/projects/${projectId}/notebooks/`, {
      rawBody: '{"title": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.type, 'validation_error');
    assert.equal(answer.json.code, 'parse_error');
    assert.equal(answer.json.attr, null);
    assert.match(answer.json.detail, /^JSON parse error - /);
  });

  test('a body that is not a JSON object is 400; a non-JSON media type is 415', async () => {
    const list = await call(api, 'POST', `/api/projects/${projectId}/notebooks/`, { body: [1, 2] });
    assert.deepEqual(list.json, errorBody('validation_error', 'invalid', 'Invalid data. Expected a dictionary, but got list.'));
    const text = await call(api, 'POST', `/api/projects/${projectId}/notebooks/`, { rawBody: 'title=x', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(text.status, 415);
    assert.deepEqual(text.json, errorBody('invalid_request', 'unsupported_media_type', 'Unsupported media type "text/plain" in request.'));
  });

  test('every request is recorded with method, path, query, status and headers', async () => {
    api.clearRequests();
    await get(api, `/api/projects/${projectId}/notebooks/?limit=2&contains=recording:true&contains=query:true`);
    await get(api, '/api/organizations/', { key: null });
    assert.equal(api.requests.length, 2);
    const [first, second] = api.requests;
    assert.equal(first!.method, 'GET');
    assert.equal(first!.path, `/api/projects/${projectId}/notebooks/`);
    assert.deepEqual(first!.query, { limit: '2', contains: ['recording:true', 'query:true'] });
    assert.equal(first!.status, 200);
    assert.equal(first!.headers['authorization'], `Bearer ${api.keys.all}`);
    assert.equal(second!.status, 401);
    assert.equal(second!.headers['authorization'], undefined);
  });
});

describe('local API: over https', () => {
  const tls = throwawayCertificate();

  /** GET over https trusting the throwaway certificate. */
  function getJson(api: LocalApi, path: string): Promise<{ status: number; json: any }> {
    return new Promise((resolve, reject) => {
      const req = request(`${api.url}${path}`, { ca: tls.cert, headers: { Authorization: `Bearer ${api.keys.all}` } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('next/previous links use https, or http:// with httpNextLinks (self-hosted PostHog not configured as behind a proxy)', async () => {
    for (const [httpNextLinks, scheme] of [[false, 'https'], [true, 'http']] as const) {
      const api = await startLocalApi({ seed: 'minimal', tls, httpNextLinks });
      try {
        assert.match(api.url, /^https:\/\//);
        const host = new URL(api.url).host;
        const first = await getJson(api, '/api/projects/?limit=1');
        assert.equal(first.status, 200);
        assert.equal(first.json.next, `${scheme}://${host}/api/projects/?limit=1&offset=1`);
        const second = await getJson(api, '/api/projects/?limit=1&offset=1');
        assert.equal(second.json.previous, `${scheme}://${host}/api/projects/?limit=1`);
      } finally {
        await api.close();
      }
    }
  });
});
