import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { networkRoute } from '../../../src/api/network';
import { describeRoute } from '../../../src/connections/routeDescription';

const target = new URL('https://posthog.corp.example');
const describe_ = (options: Parameters<typeof networkRoute>[1], url = target) => describeRoute(networkRoute(url, options));

describe('describeRoute (the log line of each client)', () => {
  test('names the proxy and where it came from, never its credentials', () => {
    const setting = describe_({ proxy: 'http://sam:s3cret@proxy.corp:3128', env: {} });
    assert.equal(setting, 'via proxy http://proxy.corp:3128 (http.proxy)');
    assert.equal(describe_({ env: { HTTPS_PROXY: 'http://u:p@envproxy:8080' } }), 'via proxy http://envproxy:8080 (HTTPS_PROXY from the environment)');
  });

  test('says why a connection is direct', () => {
    assert.equal(describe_({ env: {} }), 'direct');
    assert.equal(describe_({ proxy: 'http://proxy:1', noProxy: ['.corp.example'], env: {} }), 'direct (matches .corp.example in http.noProxy)');
    assert.equal(describe_({ env: { HTTPS_PROXY: 'http://proxy:1', NO_PROXY: 'corp.example' } }), 'direct (matches corp.example in NO_PROXY)');
    assert.equal(describe_({ proxy: 'http://proxy:1', env: {} }, new URL('http://localhost:8010')), 'direct (this machine is never reached through a proxy)');
    assert.equal(describe_({ proxy: 'proxy.corp:3128', env: {} }), 'direct (http.proxy ignored: not an http:// or https:// URL)');
  });
});
