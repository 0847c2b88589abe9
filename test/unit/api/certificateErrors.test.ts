import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CertificateError, NetworkError } from '../../../src/api';
import { errorFromTransportFailure } from '../../../src/api/errorMapping';
import { isRetryable } from '../../../src/api/retry';

const context = { endpoint: 'GET /api/users/@me/', host: 'posthog.corp.example', timeouts: { connectMs: 1, headersMs: 1, bodyMs: 1 } };
const failure = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('TLS certificate failures in plain words', () => {
  const cases: [string, CertificateError['problem'], RegExp][] = [
    ['CERT_HAS_EXPIRED', 'expired', /certificate of posthog\.corp\.example has expired.*date and time/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed', /posthog\.corp\.example presents a self-signed TLS certificate.*NODE_EXTRA_CA_CERTS/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed', /self-signed.*http\.systemCertificates/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unknown-authority', /issued by an authority that is not trusted.*NODE_EXTRA_CA_CERTS/],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unknown-authority', /authority that is not trusted.*http\.proxyStrictSSL/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'hostname-mismatch', /certificate of posthog\.corp\.example is for another host name/],
  ];
  for (const [code, problem, message] of cases) {
    test(code, () => {
      const error = errorFromTransportFailure(failure(code), context);
      assert.ok(error instanceof CertificateError && error instanceof NetworkError);
      assert.equal(error.problem, problem);
      assert.equal(error.reason, code);
      assert.match(error.userMessage, message);
      assert.ok(error.userMessage.includes(`(${code})`), 'the code is named for a search or a ticket');
      assert.equal(isRetryable('GET', error), false, 'a certificate does not fix itself: no retry');
    });
  }

  test('found when undici wraps it (a tunnel through a proxy)', () => {
    const wrapped = Object.assign(new Error('secure proxy connection failed'), { code: 'UND_ERR_PRX_TLS', cause: failure('ERR_TLS_CERT_ALTNAME_INVALID') });
    const error = errorFromTransportFailure(wrapped, context);
    assert.ok(error instanceof CertificateError);
    assert.equal(error.problem, 'hostname-mismatch');
  });

  test('another certificate code: still a certificate error, with the last-resort setting named', () => {
    const error = errorFromTransportFailure(failure('CERT_REVOKED'), context);
    assert.ok(error instanceof CertificateError);
    assert.equal(error.problem, 'other');
    assert.match(error.userMessage, /secure connection to posthog\.corp\.example failed \(CERT_REVOKED\).*http\.proxyStrictSSL/);
  });

  test('a proxy refusing the tunnel names the proxy and what to do for 407', () => {
    const refused = failure('UND_ERR_ABORTED', 'Proxy response (407) !== 200 when HTTP Tunneling');
    const error = errorFromTransportFailure(refused, { ...context, proxy: 'http://proxy.corp:3128' });
    assert.ok(error instanceof NetworkError);
    assert.equal(error.reason, 'PROXY_407');
    assert.match(error.userMessage, /The proxy http:\/\/proxy\.corp:3128 did not open a connection to posthog\.corp\.example.*http:\/\/user:password@host:port/);
    assert.match(errorFromTransportFailure(failure('UND_ERR_ABORTED', 'Proxy response (502) !== 200 when HTTP Tunneling'), { ...context, proxy: 'http://p:1' }).userMessage, /answered HTTP 502/);
  });
});
