import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidBaseUrlError, isLoopbackHost, normalizeBaseUrl } from '../../../src/api';

describe('normalizeBaseUrl', () => {
  test('keeps an https origin and drops trailing slashes', () => {
    assert.equal(normalizeBaseUrl('https://us.posthog.com/'), 'https://us.posthog.com');
    assert.equal(normalizeBaseUrl('  https://EU.PostHog.com///  '), 'https://eu.posthog.com');
  });

  test('keeps the path prefix of a self-hosted instance', () => {
    assert.equal(normalizeBaseUrl('https://example.com/posthog/'), 'https://example.com/posthog');
    assert.equal(normalizeBaseUrl('https://example.com:8443/tools/posthog'), 'https://example.com:8443/tools/posthog');
  });

  test('adds https:// when the scheme is missing', () => {
    assert.equal(normalizeBaseUrl('us.posthog.com'), 'https://us.posthog.com');
  });

  test('drops the default port', () => {
    assert.equal(normalizeBaseUrl('https://posthog.example.com:443/'), 'https://posthog.example.com');
  });

  test('allows plain http on loopback only', () => {
    assert.equal(normalizeBaseUrl('http://localhost:8000/'), 'http://localhost:8000');
    assert.equal(normalizeBaseUrl('http://127.0.0.1:41234'), 'http://127.0.0.1:41234');
    assert.equal(normalizeBaseUrl('http://127.10.20.30'), 'http://127.10.20.30');
    assert.equal(normalizeBaseUrl('http://[::1]:8000/'), 'http://[::1]:8000');
    assert.throws(() => normalizeBaseUrl('http://posthog.example.com'), (error: unknown) => {
      assert.ok(error instanceof InvalidBaseUrlError);
      assert.match(error.message, /https/);
      return true;
    });
    assert.throws(() => normalizeBaseUrl('http://128.0.0.1'), InvalidBaseUrlError);
    assert.throws(() => normalizeBaseUrl('http://localhost.evil.com'), InvalidBaseUrlError);
  });

  test('refuses user info without echoing it', () => {
    assert.throws(() => normalizeBaseUrl('https://user:phx_secret@us.posthog.com'), (error: unknown) => {
      assert.ok(error instanceof InvalidBaseUrlError);
      assert.match(error.message, /user name or password/);
      assert.doesNotMatch(error.message, /phx_secret/);
      return true;
    });
    assert.throws(() => normalizeBaseUrl('https://good@evil.example/'), InvalidBaseUrlError);
  });

  test('refuses empty, malformed, non-http and query/fragment URLs', () => {
    for (const input of ['', '   ', 'https://', 'ftp://us.posthog.com', 'javascript:alert(1)', 'https://us.posthog.com/?a=1', 'https://us.posthog.com/#x']) {
      assert.throws(() => normalizeBaseUrl(input), InvalidBaseUrlError, input);
    }
  });

  test('points ingestion-only hosts to the API host', () => {
    assert.throws(() => normalizeBaseUrl('https://eu.i.posthog.com'), /https:\/\/eu\.posthog\.com/);
  });

  test('gives a user message equal to the message', () => {
    try {
      normalizeBaseUrl('ftp://x');
      assert.fail('expected a throw');
    } catch (error) {
      assert.ok(error instanceof InvalidBaseUrlError);
      assert.equal(error.userMessage, error.message);
    }
  });
});

describe('isLoopbackHost', () => {
  test('knows loopback names and addresses', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.255.254', '[::1]', '::1']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
  });

  test('rejects everything else', () => {
    for (const host of ['example.com', '10.0.0.1', '127.0.0.1.nip.io', '127.0.0', '127.0.0.256', 'localhost.example', '[::2]', '0.0.0.0']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});
