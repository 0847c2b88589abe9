import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { ConnectionManager } from '../../src/connections/connectionManager';
import { ForwardProxy, startForwardProxy } from '../proxy/forwardProxy';
import { HttpsFront, startHttpsFront } from '../tls/httpsFront';
import { createThrowawayCa, ThrowawayCa } from '../tls/throwawayCa';
import { ExplorerHarness, labelOf } from './support/explorerHarness';
import { allScopesKey, apiUrl } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

/** A host name only the test proxy resolves (to the HTTPS front of the local API). */
const TARGET = 'posthog.test';

/**
 * VS Code's http.proxy / http.noProxy settings and NODE_EXTRA_CA_CERTS, in the real extension host: the local
 * API behind an HTTPS front whose certificate comes from a throwaway authority, and a local forward proxy.
 */
describe('Proxies and certificates', function () {
  this.timeout(60_000);
  let ca: ThrowawayCa;
  let front: HttpsFront;
  let proxy: ForwardProxy;
  let harness: ExplorerHarness;
  const originalExtraCerts = process.env.NODE_EXTRA_CA_CERTS;
  const credentials = { user: 'corp-proxy-user', password: 's3cret:proxy' };
  const http = () => vscode.workspace.getConfiguration('http');
  const proxyUrl = () => `http://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${proxy.port}`;

  async function setting(name: 'proxy' | 'noProxy' | 'proxyStrictSSL', value: unknown): Promise<void> {
    await http().update(name, value, vscode.ConfigurationTarget.Global);
  }

  /** The tree as a person opens it: organizations, the first one's projects, that project's notebooks. */
  async function browse(): Promise<string[]> {
    const organizations = await harness.items();
    const labels = organizations.map(({ item }) => labelOf(item));
    if (labels.includes('Hedgebox Inc.')) {
      await harness.items(await harness.child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'));
    }
    return labels;
  }

  before(async () => {
    ca = createThrowawayCa();
    front = await startHttpsFront(ca.issue([TARGET, 'localhost', '127.0.0.1']), apiUrl());
    proxy = await startForwardProxy({ hosts: { [TARGET]: '127.0.0.1' }, credentials });
  });
  after(async () => {
    await setting('proxy', undefined);
    await setting('noProxy', undefined);
    await proxy.close();
    await front.close();
    ca.dispose();
  });
  beforeEach(() => {
    harness = new ExplorerHarness(runnerSecrets());
    proxy.clear();
    front.requests.length = 0;
  });
  afterEach(async () => {
    await harness.dispose();
    await setting('proxy', undefined);
    await setting('noProxy', undefined);
    await setting('proxyStrictSSL', undefined);
    if (originalExtraCerts === undefined) {
      delete process.env.NODE_EXTRA_CA_CERTS;
    } else {
      process.env.NODE_EXTRA_CA_CERTS = originalExtraCerts;
    }
  });

  it('refuses a certificate from an unknown authority, saying which host and why; NODE_EXTRA_CA_CERTS makes it trusted', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    const baseUrl = `https://localhost:${front.port}`;
    await harness.connections.signedIn(baseUrl, undefined, allScopesKey());
    const [refused] = await harness.items();
    assert.match(labelOf(refused.item), /^Could not reach localhost/);
    const tooltip = String(refused.item.tooltip);
    assert.match(tooltip, new RegExp(`certificate of localhost:${front.port} was issued by an authority that is not trusted`));
    assert.match(tooltip, /NODE_EXTRA_CA_CERTS/);
    assert.equal(front.requests.length, 0);

    // Set after VS Code started: read when the next client is created (here, by signing in again).
    process.env.NODE_EXTRA_CA_CERTS = ca.caFile;
    await harness.connections.signedIn(baseUrl, undefined, allScopesKey());
    assert.ok((await browse()).includes('Hedgebox Inc.'));
    assert.ok(front.requests.length >= 3);
  });

  it('with http.proxyStrictSSL off the certificate is not checked, from the moment the setting changes', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    await harness.connections.signedIn(`https://localhost:${front.port}`, undefined, allScopesKey());
    const [refused] = await harness.items();
    assert.match(String(refused.item.tooltip), /authority that is not trusted/);
    await setting('proxyStrictSSL', false);
    assert.ok((await browse()).includes('Hedgebox Inc.'));
    await setting('proxyStrictSSL', undefined);
    const [again] = await harness.items();
    assert.match(String(again.item.tooltip), /authority that is not trusted/, 'checked again once the setting is back on');
  });

  it('with http.proxy, every API request goes through the proxy, with its credentials, and the key stays inside the tunnel', async () => {
    process.env.NODE_EXTRA_CA_CERTS = ca.caFile;
    await setting('proxy', proxyUrl());
    const connection = await harness.connections.signedIn(`https://${TARGET}:${front.port}`, undefined, allScopesKey());
    assert.ok((await browse()).includes('Hedgebox Inc.'));
    // posthog.test resolves only at the proxy, so every request the server got came through it.
    assert.ok(front.requests.length >= 3, `the server answered ${front.requests.length} requests`);
    assert.ok(proxy.requests.length >= 1);
    const authorization = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
    for (const request of proxy.requests) {
      assert.deepEqual([request.kind, request.target, request.status], ['connect', `${TARGET}:${front.port}`, 200]);
      assert.equal(request.headers['proxy-authorization'], authorization);
    }
    assert.ok(front.requests.every((request) => request.headers['proxy-authorization'] === undefined));
    assert.ok(!proxy.seen().includes(allScopesKey()), 'the key never appears in what the proxy relayed');
    const session = await harness.connections.session(connection.id);
    assert.equal(session?.client.route.proxy, proxy.url, 'the route names the proxy without its credentials');
  });

  it('logs once per client which way it goes and what certificates it trusts, never the proxy credentials', async () => {
    await setting('proxy', proxyUrl());
    process.env.NODE_EXTRA_CA_CERTS = '/nonexistent/posthog-explorer-ca.pem';
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(`info ${line}`), warn: (line: string) => lines.push(`warn ${line}`) };
    const manager = new ConnectionManager(harness.store, log as unknown as vscode.LogOutputChannel);
    try {
      await manager.createClient(`https://${TARGET}:${front.port}`, allScopesKey()).dispose();
      await manager.createClient(`https://localhost:${front.port}`, allScopesKey()).dispose();
    } finally {
      manager.dispose();
    }
    assert.ok(lines.includes(`info ${TARGET}:${front.port}: via proxy ${proxy.url} (http.proxy)`), lines.join('\n'));
    assert.ok(lines.includes(`info localhost:${front.port}: direct (this machine is never reached through a proxy)`), lines.join('\n'));
    assert.ok(
      lines.includes('warn Certificates: NODE_EXTRA_CA_CERTS names /nonexistent/posthog-explorer-ca.pem, which could not be read (no such file).'),
      lines.join('\n'),
    );
    const text = lines.join('\n');
    assert.ok(!text.includes(credentials.password) && !text.includes(encodeURIComponent(credentials.password)) && !text.includes(credentials.user));
  });

  it('with http.noProxy matching the host, nothing goes through the proxy; the settings apply without a reload', async () => {
    process.env.NODE_EXTRA_CA_CERTS = ca.caFile;
    await setting('proxy', proxyUrl());
    await harness.connections.signedIn(`https://${TARGET}:${front.port}`, undefined, allScopesKey());
    assert.ok((await browse()).includes('Hedgebox Inc.'));
    assert.ok(proxy.requests.length >= 1);

    proxy.clear();
    front.requests.length = 0;
    await setting('noProxy', [TARGET]);
    // Direct now: the name does not resolve without the proxy.
    const [direct] = await harness.items();
    assert.match(labelOf(direct.item), new RegExp(`^Could not reach ${TARGET}`));
    assert.match(String(direct.item.tooltip), /host name not found/);
    assert.equal(proxy.requests.length, 0, 'no request went to the proxy');
    assert.equal(front.requests.length, 0);

    await setting('noProxy', undefined);
    assert.ok((await browse()).includes('Hedgebox Inc.'), 'back through the proxy');
    assert.ok(proxy.requests.length >= 1 && front.requests.length >= 3);
  });
});
