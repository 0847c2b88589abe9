import { describe, test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalApi, textContentOf, type LocalApi } from '../../api-server';
import { parseArgs } from '../../api-server/cli';
import { get, mainProject } from './helpers';

const CLI = join(__dirname, '..', '..', 'api-server', 'cli.js');

/** Starts the CLI and resolves with its printed banner once it says it is serving. */
function startCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Press Ctrl+C to stop.')) resolve(output);
    });
    child.once('exit', (code) => reject(new Error(`CLI exited early (${code}): ${output}`)));
  });
  return { child, ready };
}

describe('local API: CLI', () => {
  test('prints its URL and four keys (one limited to a project), serves, and stops cleanly on SIGTERM', async () => {
    const { child, ready } = startCli(['--port', '0', '--seed', 'minimal']);
    try {
      const banner = await ready;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      const keys = [...banner.matchAll(/phx_[A-Za-z0-9]+/g)].map((m) => m[0]);
      assert.equal(new Set(keys).size, 4);
      assert.match(banner, /one project \(\*\) +phx_[A-Za-z0-9]+ +\(limited to project \d+\)/);
      const me = await fetch(`${url}/api/users/@me/`, { headers: { Authorization: `Bearer ${keys[0]}` } });
      assert.equal(me.status, 200);
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exit;
      assert.equal(code, 0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('refuses a non-loopback host', async () => {
    const child = spawn(process.execPath, [CLI, '--host', '0.0.0.0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    assert.equal(code, 2);
    assert.match(stderr, /loopback/);
  });
});

describe('local API: CLI over https', () => {
  test('--tls serves over https with a throwaway certificate and prints where it is; --http-next-links needs --tls', async () => {
    assert.throws(() => parseArgs(['--http-next-links']), /--http-next-links needs --tls/);
    assert.equal(parseArgs(['--event-list-level', '0']).eventListLevel, 0);
    assert.throws(() => parseArgs(['--event-list-level', '3']), /must be 0, 1 or 2/);
    assert.deepEqual(parseArgs(['--no-query-api', '--query-run-ms', '2500']), { port: 8010, seed: 'demo', queryApi: false, queryRunMs: 2500 });
    assert.throws(() => parseArgs(['--query-run-ms', 'slow']), /must be a non-negative integer/);
    assert.deepEqual(parseArgs(['--tls', '--http-next-links']), { port: 8010, seed: 'demo', tls: true, httpNextLinks: true });
    const { child, ready } = startCli(['--port', '0', '--seed', 'empty', '--tls', '--http-next-links']);
    try {
      const banner = await ready;
      assert.match(banner, /listening on https:\/\/127\.0\.0\.1:\d+/);
      assert.match(banner, /TLS certificate \(self-signed; trust it with curl --cacert\): \S+cert\.pem/);
      assert.match(banner, /next\/previous links use http:\/\//);
      const certFile = /--cacert\): (\S+)/.exec(banner)![1]!;
      assert.ok(existsSync(certFile));
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      await exit;
      assert.ok(!existsSync(certFile), 'the certificate is removed on shutdown');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('local API: demo seed', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi({ seed: 'demo' });
  });
  after(() => api.close());

  test('has several organizations and projects, 100,000+ events and rich notebooks', async () => {
    const orgs = (await get(api, '/api/organizations/')).json.results.map((o: { name: string }) => o.name);
    assert.deepEqual(orgs, ['Hedgebox Inc.', 'Acme Analytics', 'Nimbus Labs']);
    assert.ok((await get(api, '/api/projects/')).json.count >= 8);
    const { projectId } = mainProject(api);
    assert.ok(api.store.eventsOf(projectId).size >= 100_000);
    const events = (await get(api, `/api/projects/${projectId}/events/?limit=200`)).json;
    assert.equal(events.results.length, 200);
    const names = new Set(events.results.map((e: { event: string }) => e.event));
    assert.ok(names.has('$pageview') && names.has('$autocapture'));
    assert.ok(events.results.every((e: { properties: Record<string, unknown> }) => e.properties['$browser'] && e.properties['$os'] && e.properties['$current_url']));

    const list = (await get(api, `/api/projects/${projectId}/notebooks/`)).json;
    assert.equal(list.count, 15);
    const full = (await get(api, `/api/projects/${projectId}/notebooks/${list.results[0].short_id}/`)).json;
    assert.equal(full.content.type, 'doc');
    assert.equal(full.text_content, textContentOf(full.content));
    const types = new Set(api.store.notebooksOf(projectId).flatMap((n) => ((n.content as { content: { type: string }[] }).content ?? []).map((c) => c.type)));
    for (const type of ['heading', 'paragraph', 'bulletList', 'ph-query', 'ph-recording']) assert.ok(types.has(type), type);
  });

  test('is reproducible: same keys and ids on every start', async () => {
    const again = await startLocalApi({ seed: 'demo', demoEvents: 1000 });
    try {
      assert.deepEqual(again.keys, api.keys);
      assert.deepEqual(again.store.organizations.map((o) => o.name), api.store.organizations.map((o) => o.name));
      assert.deepEqual(again.store.notebooksOf(1).map((n) => n.short_id), api.store.notebooksOf(1).map((n) => n.short_id));
    } finally {
      await again.close();
    }
  });
});
