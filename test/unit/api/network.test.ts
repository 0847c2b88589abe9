import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { LocalApi, startLocalApi } from '../../api-server';
import { CertificateError, extraCertificates, NetworkError, NetworkOptions, PostHogClient } from '../../../src/api';
import { matchingNoProxyEntry, networkRoute, withoutCredentials } from '../../../src/api/network';
import { ForwardProxy, startForwardProxy } from '../../proxy/forwardProxy';
import { HttpsFront, startHttpsFront } from '../../tls/httpsFront';
import { createThrowawayCa, ThrowawayCa } from '../../tls/throwawayCa';

const TARGET = 'posthog.test';

/** Going direct, the client resolves the name itself and finds no such host (EAI_AGAIN on a machine without DNS). */
const notResolved = (error: unknown) => error instanceof NetworkError && ['ENOTFOUND', 'EAI_AGAIN'].includes(error.reason);

describe('networkRoute', () => {
  const target = new URL('https://posthog.corp.example:8443');

  test('the proxy option, without its credentials in what is shown', () => {
    const route = networkRoute(target, { proxy: 'http://sam:s3cret@proxy.corp:3128', env: {} });
    assert.deepEqual(route, { proxy: 'http://proxy.corp:3128', proxySource: 'option' });
    assert.ok(!JSON.stringify(route).includes('s3cret'));
  });

  test('no proxy anywhere: direct', () => {
    assert.deepEqual(networkRoute(target, { env: {} }), {});
  });

  test('loopback hosts are always direct, as in VS Code', () => {
    for (const url of ['http://localhost:8000', 'http://127.0.0.1:8000', 'http://[::1]:8000']) {
      assert.deepEqual(networkRoute(new URL(url), { proxy: 'http://proxy.corp:3128', env: {} }), { bypass: { reason: 'loopback' } }, url);
    }
  });

  test('the environment when the option is empty: HTTPS_PROXY for https, else HTTP_PROXY; lower case first', () => {
    assert.equal(networkRoute(target, { proxy: '', env: { HTTPS_PROXY: 'http://a:1' } }).proxySource, 'HTTPS_PROXY');
    assert.equal(networkRoute(target, { env: { HTTP_PROXY: 'http://b:2' } }).proxy, 'http://b:2');
    assert.equal(networkRoute(target, { env: { https_proxy: 'http://c:3', HTTPS_PROXY: 'http://a:1' } }).proxySource, 'https_proxy');
    assert.equal(networkRoute(target, { proxy: 'http://option:9', env: { HTTPS_PROXY: 'http://a:1' } }).proxy, 'http://option:9');
  });

  test('noProxy entries: host, subdomains, leading dot or *., port, *', () => {
    const proxy = 'http://proxy.corp:3128';
    const bypass = (noProxy: string[]) => networkRoute(target, { proxy, noProxy, env: {} }).bypass;
    assert.deepEqual(bypass(['posthog.corp.example']), { reason: 'noProxy', entry: 'posthog.corp.example', source: 'option' });
    assert.equal(bypass(['corp.example'])?.reason, 'noProxy');
    assert.equal(bypass(['.corp.example'])?.reason, 'noProxy');
    assert.equal(bypass(['*.corp.example'])?.reason, 'noProxy');
    assert.equal(bypass(['corp.example:8443'])?.reason, 'noProxy');
    assert.equal(bypass(['*'])?.reason, 'noProxy');
    assert.equal(bypass(['corp.example:443']), undefined, 'another port');
    assert.equal(bypass(['rp.example']), undefined, 'not a subdomain, only a common suffix');
    assert.equal(bypass(['other.example']), undefined);
  });

  test('NO_PROXY applies when http.noProxy is empty, and not when it has entries (as in VS Code)', () => {
    const env = { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'localhost,.corp.example' };
    assert.deepEqual(networkRoute(target, { env }).bypass, { reason: 'noProxy', entry: '.corp.example', source: 'NO_PROXY' });
    assert.deepEqual(networkRoute(target, { env, noProxy: ['other.example'] }), { proxy: 'http://proxy:1', proxySource: 'HTTPS_PROXY' });
  });

  test('a proxy value that is not an http(s) URL is ignored and said so', () => {
    assert.deepEqual(networkRoute(target, { proxy: 'proxy.corp:3128', env: {} }), { ignoredProxy: 'option' });
    assert.deepEqual(networkRoute(target, { env: { HTTPS_PROXY: 'socks5://x:1' } }), { ignoredProxy: 'HTTPS_PROXY' });
  });

  test('matchingNoProxyEntry and withoutCredentials', () => {
    assert.equal(matchingNoProxyEntry(new URL('https://a.b.example/'), ['x', 'B.Example']), 'B.Example');
    assert.equal(withoutCredentials('http://u:p@proxy:8080/path'), 'http://proxy:8080');
    assert.doesNotMatch(withoutCredentials('::nonsense::'), /nonsense/);
  });
});

describe('requests through a proxy (local forward proxy, HTTPS server with a throwaway authority)', () => {
  let api: LocalApi;
  let ca: ThrowawayCa;
  let front: HttpsFront;
  let proxy: ForwardProxy;
  let openProxy: ForwardProxy;
  const clients: PostHogClient[] = [];
  const credentials = { user: 'proxy-user', password: 'p@ss:word' };
  const proxyUrl = () => `http://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${proxy.port}`;
  const baseUrl = () => `https://${TARGET}:${front.port}`;

  function connect(network: NetworkOptions, url = baseUrl()): PostHogClient {
    const client = new PostHogClient({ baseUrl: url, apiKey: api.keys.all, network: { env: {}, ...network }, retry: { retries: 0 } });
    clients.push(client);
    return client;
  }

  /** Three calls of the tree's first levels. */
  async function browse(client: PostHogClient): Promise<void> {
    await client.users.me();
    const [organization] = await client.organizations.listAll();
    await client.projects.list(organization.id);
  }

  before(async () => {
    api = await startLocalApi();
    ca = createThrowawayCa();
    front = await startHttpsFront(ca.issue([TARGET, 'localhost', '127.0.0.1']), api.url);
    proxy = await startForwardProxy({ hosts: { [TARGET]: '127.0.0.1' }, credentials });
    openProxy = await startForwardProxy({ hosts: { [TARGET]: '127.0.0.1' } });
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await proxy.close();
    await openProxy.close();
    await front.close();
    ca.dispose();
    await api.close();
  });

  function reset(): void {
    proxy.clear();
    openProxy.clear();
    front.requests.length = 0;
  }

  test('a proxy that cannot be reached is named as such, without its credentials', async () => {
    const closed = await startForwardProxy();
    await closed.close();
    const client = connect({ proxy: `http://user:hidden@127.0.0.1:${closed.port}`, ca: [ca.caPem] });
    await assert.rejects(client.users.me(), (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.equal(error.userMessage, `Could not reach the proxy http://127.0.0.1:${closed.port} (connection refused). Check the proxy setting (http.proxy or HTTPS_PROXY).`);
      return true;
    });
  });

  test('with the proxy option every request goes through the proxy (the host resolves only there)', async () => {
    reset();
    const client = connect({ proxy: proxyUrl(), ca: [ca.caPem] });
    await browse(client);
    assert.equal(front.requests.length, 3, 'the server answered every call');
    assert.ok(proxy.requests.length >= 1);
    assert.ok(proxy.requests.every((request) => request.kind === 'connect' && request.target === `${TARGET}:${front.port}` && request.status === 200));
  });

  test('credentials in the proxy URL reach the proxy as Proxy-Authorization, never the server', async () => {
    reset();
    await browse(connect({ proxy: proxyUrl(), ca: [ca.caPem] }));
    const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
    assert.ok(proxy.requests.every((request) => request.headers['proxy-authorization'] === expected));
    assert.ok(front.requests.length > 0);
    for (const request of front.requests) {
      assert.equal(request.headers['proxy-authorization'], undefined);
      assert.ok(!JSON.stringify(request.headers).includes(credentials.password));
    }
  });

  test('wrong proxy credentials: a clear error naming the proxy, without the password', async () => {
    reset();
    const client = connect({ proxy: `http://${credentials.user}:wrong@127.0.0.1:${proxy.port}`, ca: [ca.caPem] });
    await assert.rejects(client.users.me(), (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.match(error.userMessage, new RegExp(`proxy http://127\\.0\\.0\\.1:${proxy.port} did not open a connection to ${TARGET}.*credentials`));
      assert.ok(!error.userMessage.includes('wrong'));
      return true;
    });
    assert.equal(proxy.requests[0].status, 407);
    assert.equal(front.requests.length, 0);
  });

  test('the API key never appears in the bytes the proxy relays for a CONNECT tunnel', async () => {
    reset();
    await browse(connect({ proxy: proxyUrl(), ca: [ca.caPem] }));
    const seen = proxy.seen();
    assert.ok(seen.length > 1000, 'the proxy relayed the tunnel');
    assert.ok(front.requests.every((request) => request.headers.authorization === `Bearer ${api.keys.all}`), 'the server got the key');
    assert.ok(!seen.includes(api.keys.all), 'the key is not in what the proxy saw');
    assert.ok(!seen.includes('/api/users/@me/'), 'nor the paths: the tunnel carries TLS');
  });

  test('with noProxy matching the host nothing goes through the proxy', async () => {
    reset();
    const client = connect({ proxy: proxyUrl(), noProxy: ['.test'], ca: [ca.caPem] });
    assert.deepEqual(client.route.bypass, { reason: 'noProxy', entry: '.test', source: 'option' });
    // posthog.test resolves only at the proxy: going direct, the client finds no such host.
    await assert.rejects(client.users.me(), notResolved);
    assert.equal(proxy.requests.length, 0);
    assert.equal(front.requests.length, 0);
  });

  test('without the option the environment is used: HTTPS_PROXY, and NO_PROXY', async () => {
    reset();
    const env = { HTTPS_PROXY: openProxy.url };
    await browse(connect({ env, ca: [ca.caPem] }));
    assert.equal(front.requests.length, 3);
    assert.ok(openProxy.requests.length >= 1 && openProxy.requests.every((request) => request.target === `${TARGET}:${front.port}`));

    reset();
    const bypassed = connect({ env: { ...env, NO_PROXY: TARGET }, ca: [ca.caPem] });
    await assert.rejects(bypassed.users.me(), notResolved);
    assert.equal(openProxy.requests.length, 0);
  });

  test('a loopback server is reached directly even with a proxy', async () => {
    reset();
    await browse(connect({ proxy: proxyUrl(), ca: [ca.caPem] }, `https://localhost:${front.port}`));
    assert.equal(front.requests.length, 3);
    assert.equal(proxy.requests.length, 0);
  });

  test('the forward proxy also relays absolute-form requests and counts them', async () => {
    reset();
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port: openProxy.port, method: 'GET', path: `${api.url}/api/users/@me/`, headers: { authorization: `Bearer ${api.keys.all}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    assert.equal(status, 200);
    assert.deepEqual(
      openProxy.requests.map((request) => [request.kind, request.target, request.status]),
      [['forward', `${api.url}/api/users/@me/`, 200]],
    );
    assert.ok(openProxy.seen().includes('GET /api/users/@me/') || openProxy.seen().includes(`GET ${api.url}/api/users/@me/`));
  });

  describe('certificates', () => {
    test('refused without the authority: the host and the reason in plain words, with the settings that help', async () => {
      const client = connect({}, `https://localhost:${front.port}`);
      await assert.rejects(client.users.me(), (error: unknown) => {
        assert.ok(error instanceof CertificateError, String(error));
        assert.equal(error.problem, 'unknown-authority');
        assert.match(error.userMessage, new RegExp(`certificate of localhost:${front.port} was issued by an authority that is not trusted`));
        assert.match(error.userMessage, /NODE_EXTRA_CA_CERTS/);
        assert.match(error.userMessage, /http\.systemCertificates/);
        return true;
      });
    });

    test('accepted with NODE_EXTRA_CA_CERTS naming the authority, read when the client is created', async () => {
      const extra = extraCertificates({ systemCertificates: false, env: { NODE_EXTRA_CA_CERTS: ca.caFile } });
      assert.deepEqual(extra.problems, []);
      assert.match(extra.sources[0], /NODE_EXTRA_CA_CERTS .*ca\.pem \(1 certificate\)/);
      const client = connect({ ca: extra.certificates }, `https://localhost:${front.port}`);
      assert.ok((await client.users.me()).email);
    });

    test('the authority through the proxy tunnel too', async () => {
      const refused = connect({ proxy: proxyUrl() });
      await assert.rejects(refused.users.me(), (error: unknown) => error instanceof CertificateError && error.userMessage.includes(TARGET));
    });

    test('a self-signed certificate and a certificate for another name are told apart', async () => {
      const selfSigned = await startHttpsFront(ca.selfSigned(['localhost']), api.url);
      const otherName = await startHttpsFront(ca.issue(['elsewhere.example']), api.url);
      try {
        await assert.rejects(connect({}, `https://localhost:${selfSigned.port}`).users.me(), (error: unknown) => {
          assert.ok(error instanceof CertificateError);
          assert.equal(error.problem, 'self-signed');
          assert.match(error.userMessage, new RegExp(`localhost:${selfSigned.port} presents a self-signed TLS certificate`));
          return true;
        });
        await assert.rejects(connect({ ca: [ca.caPem] }, `https://localhost:${otherName.port}`).users.me(), (error: unknown) => {
          assert.ok(error instanceof CertificateError);
          assert.equal(error.problem, 'hostname-mismatch');
          assert.match(error.userMessage, /is for another host name/);
          return true;
        });
      } finally {
        await selfSigned.close();
        await otherName.close();
      }
    });

    test('http.proxyStrictSSL off: the certificate is not checked', async () => {
      const client = connect({ strictSSL: false }, `https://localhost:${front.port}`);
      assert.ok((await client.users.me()).email);
    });
  });
});
