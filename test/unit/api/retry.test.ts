import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_RETRY,
  MethodNotAllowedError,
  NetworkError,
  NotFoundError,
  QueryTooSlowError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../../src/api';
import { isRetryable, retryDelayMs } from '../../../src/api/retry';

const endpoint = 'GET /api/projects/';
const server = (status: number) => new ServerError({ endpoint, status });
const reset = new NetworkError({ endpoint, host: 'h', reason: 'ECONNRESET', beforeRequestSent: false });
const refused = new NetworkError({ endpoint, host: 'h', reason: 'ECONNREFUSED', beforeRequestSent: true });
const unknownHost = new NetworkError({ endpoint, host: 'h', reason: 'ENOTFOUND', beforeRequestSent: true });
const throttled = (seconds?: number) => new RateLimitedError({ endpoint, status: 429, retryAfterSeconds: seconds });
const headersTimeout = new TimeoutError({ endpoint, host: 'h', phase: 'headers', timeoutMs: 1000 });
const connectTimeout = new TimeoutError({ endpoint, host: 'h', phase: 'connect', timeoutMs: 1000 });

describe('isRetryable', () => {
  test('GET retries 429, 502, 503, resets, refusals and timeouts', () => {
    for (const error of [throttled(1), server(502), server(503), reset, refused, headersTimeout, connectTimeout]) {
      assert.equal(isRetryable('GET', error), true, error.message);
      assert.equal(isRetryable('HEAD', error), true, error.message);
    }
  });

  test('GET does not retry a query that took too long (504, 512): it would run just as long again', () => {
    for (const status of [504, 512]) {
      for (const error of [server(status), new QueryTooSlowError({ endpoint, status, detail: 'Estimated query execution time is too long.' })]) {
        assert.equal(isRetryable('GET', error), false, error.message);
      }
    }
  });

  test('GET does not retry 500, client errors or an unknown host', () => {
    for (const error of [server(500), new NotFoundError({ endpoint, status: 404 }), new ValidationError({ endpoint, status: 400 }), unknownHost]) {
      assert.equal(isRetryable('GET', error), false, error.message);
    }
  });

  test('POST is never retried, not even on 429 or a refused connection', () => {
    for (const error of [throttled(1), server(503), reset, refused, connectTimeout]) {
      assert.equal(isRetryable('POST', error), false, error.message);
    }
  });

  test('PATCH, PUT and DELETE retry only when the server provably did nothing', () => {
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      assert.equal(isRetryable(method, throttled(1)), true, `${method} 429`);
      assert.equal(isRetryable(method, refused), true, `${method} refused`);
      assert.equal(isRetryable(method, connectTimeout), true, `${method} connect timeout`);
      assert.equal(isRetryable(method, reset), false, `${method} reset`);
      assert.equal(isRetryable(method, server(502)), false, `${method} 502`);
      assert.equal(isRetryable(method, headersTimeout), false, `${method} headers timeout`);
      assert.equal(isRetryable(method, new MethodNotAllowedError({ endpoint, status: 405 })), false, `${method} 405`);
    }
  });
});

describe('retryDelayMs', () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, retries: 5 };

  test('full jitter: between 0 and an exponentially growing ceiling', () => {
    assert.equal(retryDelayMs(0, reset, options, () => 0), 0);
    assert.equal(retryDelayMs(0, reset, options, () => 0.999999), 100);
    assert.equal(retryDelayMs(1, reset, options, () => 0.999999), 200);
    assert.equal(retryDelayMs(2, reset, options, () => 0.5), 200);
    assert.equal(retryDelayMs(3, reset, options, () => 0.999999), 800);
  });

  test('the ceiling is capped at maxDelayMs', () => {
    assert.equal(retryDelayMs(4, reset, options, () => 0.999999), 1000);
  });

  test('gives up after the configured retries', () => {
    assert.equal(retryDelayMs(5, reset, options, () => 0.5), undefined);
    assert.equal(retryDelayMs(0, reset, { ...options, retries: 0 }, () => 0.5), undefined);
  });

  test('429 waits what the server asked, plus a little jitter', () => {
    assert.equal(retryDelayMs(0, throttled(7), options, () => 0), 7000);
    const delay = retryDelayMs(0, throttled(7), options, () => 0.999999) ?? 0;
    assert.ok(delay > 7000 && delay <= 7100, String(delay));
  });

  test('429 asking to wait longer than maxRetryAfterMs is surfaced, not retried', () => {
    assert.equal(retryDelayMs(0, throttled(3600), options, () => 0), undefined);
  });

  test('429 without a known wait backs off like any retry', () => {
    assert.equal(retryDelayMs(1, throttled(undefined), options, () => 0.999999), 200);
  });
});
