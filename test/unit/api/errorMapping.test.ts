import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AdminOnlySettingsError,
  AuthenticationError,
  ConflictError,
  errorFromResponse,
  MethodNotAllowedError,
  MissingScopeError,
  NotFoundError,
  parseErrorBody,
  PermissionDeniedError,
  PersonalApiKeyNotSupportedError,
  PostHogError,
  ProjectScopedKeyError,
  RateLimitedError,
  retryAfterSeconds,
  QueryMemoryError,
  QueryTooLargeError,
  QueryTooSlowError,
  QuotaExceededError,
  ServerError,
  ServiceUnavailableError,
  UnexpectedStatusError,
  ValidationError,
} from '../../../src/api';
import { isRetryable } from '../../../src/api/retry';

const body = (type: string, code: string, detail: string, attr: string | null = null) => JSON.stringify({ type, code, detail, attr });

function map(status: number, bodyText: string, endpoint = 'GET /api/projects/1/notebooks/', extra: { retryAfter?: string; location?: string } = {}) {
  return errorFromResponse({ endpoint, status, bodyText, ...extra, now: new Date('2025-01-01T00:00:00Z') });
}

describe('errorFromResponse', () => {
  test('401 without a key and with a bad key', () => {
    const missing = map(401, body('authentication_error', 'not_authenticated', 'Authentication credentials were not provided.'));
    assert.ok(missing instanceof AuthenticationError);
    assert.equal(missing.code, 'not_authenticated');
    assert.match(missing.userMessage, /No personal API key/);
    const bad = map(401, body('authentication_error', 'authentication_failed', 'Personal API key found in request Authorization header is invalid.'));
    assert.ok(bad instanceof AuthenticationError);
    assert.match(bad.userMessage, /rejected the personal API key/);
    assert.equal(bad.detail, 'Personal API key found in request Authorization header is invalid.');
  });

  test('403 missing scope exposes the scope', () => {
    const error = map(403, body('authentication_error', 'permission_denied', "API key missing required scope 'notebook:write'"));
    assert.ok(error instanceof MissingScopeError);
    assert.equal(error.scope, 'notebook:write');
    assert.match(error.userMessage, /notebook:write/);
    assert.equal(error.status, 403);
  });

  test('403 refusing personal API keys', () => {
    const error = map(403, body('authentication_error', 'permission_denied', 'This action does not support personal API key access'));
    assert.ok(error instanceof PersonalApiKeyNotSupportedError);
    assert.match(error.userMessage, /web app/);
  });

  test('403 for a key limited to some projects on a list: its own class, in plain words', () => {
    const error = map(403, body('authentication_error', 'permission_denied', 'API keys with scoped projects are only supported on project-based endpoints.'));
    assert.ok(error instanceof ProjectScopedKeyError);
    assert.equal(error.userMessage, 'This personal API key is limited to some projects. PostHog lets such a key use only the endpoints of those projects, not lists of organizations or projects.');
  });

  test('403 naming admin-only settings, on create and on update: the fields it names, PostHog\'s words shown', () => {
    const create = map(403, body('authentication_error', 'permission_denied', 'Only organization admins can set these settings on project creation: anonymize_ips, timezone'));
    assert.ok(create instanceof AdminOnlySettingsError);
    assert.deepEqual(create.fields, ['anonymize_ips', 'timezone']);
    assert.equal(create.userMessage, 'PostHog refused the request. Only organization admins can set these settings on project creation: anonymize_ips, timezone.');
    const update = map(403, body('authentication_error', 'permission_denied', 'Only project admins can modify these settings: name'));
    assert.ok(update instanceof AdminOnlySettingsError);
    assert.deepEqual(update.fields, ['name']);
    const other = map(403, body('authentication_error', 'permission_denied', "You don't have sufficient permissions in the project."));
    assert.ok(!(other instanceof AdminOnlySettingsError));
  });

  test('other 403s: project access and plan limit', () => {
    const access = map(403, body('authentication_error', 'permission_denied', 'API key does not have access to the requested project: ID 7.'));
    assert.ok(access instanceof PermissionDeniedError);
    assert.match(access.userMessage, /ID 7/);
    const plan = map(403, body('authentication_error', 'permission_denied', 'You have reached the maximum limit of allowed projects for your current plan.'));
    assert.ok(plan instanceof PermissionDeniedError);
    assert.match(plan.userMessage, /maximum limit/);
  });

  test('404', () => {
    const error = map(404, body('invalid_request', 'not_found', 'Not found.'));
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.endpoint, 'GET /api/projects/1/notebooks/');
  });

  test('400 carries attr and names the field in the user message', () => {
    const error = map(400, body('validation_error', 'invalid_input', 'Ensure this field has no more than 200 characters.', 'name'), 'POST /api/organizations/o/projects/');
    assert.ok(error instanceof ValidationError);
    assert.equal(error.attr, 'name');
    assert.equal(error.code, 'invalid_input');
    assert.match(error.userMessage, /name: Ensure this field/);
  });

  test('400 nested attr is shown dotted', () => {
    const error = map(400, body('validation_error', 'required', 'This field is required.', 'content__type'));
    assert.equal(error.attr, 'content__type');
    assert.match(error.userMessage, /content\.type: This field is required\./);
  });

  test('405 with an empty body (notebook DELETE)', () => {
    const error = map(405, '', 'DELETE /api/projects/1/notebooks/abc/');
    assert.ok(error instanceof MethodNotAllowedError);
    assert.equal(error.status, 405);
    assert.equal(error.detail, undefined);
    assert.match(error.userMessage, /soft delete|trash/);
  });

  test('405 elsewhere names the method', () => {
    const error = map(405, body('invalid_request', 'method_not_allowed', 'Method "PUT" not allowed.'), 'PUT /api/projects/1/notebooks/abc/');
    assert.ok(error instanceof MethodNotAllowedError);
    assert.match(error.userMessage, /PUT/);
  });

  test('409 notebook version conflict and duplicate project name', () => {
    const stale = map(409, body('server_error', 'conflict', 'Someone else edited the Notebook'));
    assert.ok(stale instanceof ConflictError);
    assert.match(stale.userMessage, /Reload/);
    const duplicate = map(409, body('server_error', 'conflict', 'There is already a project called "Web" in this organization. Choose a different name.'));
    assert.ok(duplicate instanceof ConflictError);
    assert.match(duplicate.userMessage, /already a project called "Web"/);
  });

  test('429 reads the wait from the detail (PostHog sends no Retry-After)', () => {
    const error = map(429, body('throttled_error', 'throttled', 'Request was throttled. Expected available in 17 seconds.'));
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfterSeconds, 17);
    assert.match(error.userMessage, /17 seconds/);
  });

  test('PostHog\'s query errors show its text and the next step: 402 billing, 513 shorter range or wait, 503 Retry-After, 400 too_many_bytes', () => {
    const quota = map(402, body('server_error', 'quota_limit_exceeded', 'Your organization reached its billing limit for this resource. Increase the limits in Billing settings, or ask an org admin to do so.'));
    assert.ok(quota instanceof QuotaExceededError);
    assert.equal(quota.userMessage, "Your organization reached its billing limit for this resource. Increase the limits in Billing settings, or ask an org admin to do so. Check the organization's billing limits in PostHog (Settings → Billing), or ask an organization admin.");
    assert.match(map(402, body('server_error', 'payment_required', 'This feature is part of the premium PostHog offering.')).userMessage, /paid PostHog plan/);
    const memory = map(513, body('server_error', 'clickhouse_memory_limit_exceeded', 'This query ran out of memory before it could finish. Try a shorter date range or narrower filters.'));
    assert.ok(memory instanceof QueryMemoryError && !memory.heavyLoad);
    assert.match(memory.userMessage, /^This query ran out of memory.*Try a shorter time range or narrower filters\.$/);
    const busy = map(513, body('server_error', 'clickhouse_memory_limit_exceeded', "We're under heavy load right now, and this query ran out of memory."));
    assert.ok(busy instanceof QueryMemoryError && busy.heavyLoad);
    assert.match(busy.userMessage, /Wait a few minutes, then try again\.$/);
    const unavailable = map(503, body('server_error', 'database_unavailable', 'The database is temporarily unavailable.'), 'GET /x/', { retryAfter: '1' });
    assert.ok(unavailable instanceof ServiceUnavailableError);
    assert.equal(unavailable.retryAfterSeconds, 1);
    const tooBusy = map(503, body('server_error', 'error', "Queries are a little too busy right now. We're working to free up resources. Please try again later."));
    assert.equal(tooBusy.userMessage, "Queries are a little too busy right now. We're working to free up resources. Please try again later.");
    const bytes = map(400, body('validation_error', 'too_many_bytes', 'This query would read too much data.'));
    assert.ok(bytes instanceof QueryTooLargeError && bytes instanceof ValidationError);
    assert.equal(bytes.userMessage, 'This query would read too much data. Narrow it: a shorter time range or more filters.');
    for (const error of [quota, memory, busy, bytes]) {
      assert.equal(isRetryable('GET', error), false, `${error.name} is not retried`);
    }
    assert.equal(isRetryable('GET', unavailable), true);
  });

  test('429 prefers the Retry-After header', () => {
    const error = map(429, body('throttled_error', 'throttled', 'Request was throttled. Expected available in 17 seconds.'), 'GET /x/', { retryAfter: '3' });
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfterSeconds, 3);
  });

  test('5xx, including non-JSON bodies', () => {
    const error = map(502, '<html><body>Bad gateway</body></html>');
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 502);
    assert.equal(error.detail, undefined);
    const plain = map(500, 'Internal Server Error');
    assert.ok(plain instanceof ServerError);
    assert.equal(plain.detail, 'Internal Server Error');
  });

  test('512 and a 504 query timeout show PostHog\'s own text; a 504 gateway page says the query took too long', () => {
    const tooLong = map(512, body('server_error', 'error', 'Estimated query execution time is too long. Try reducing its scope by changing the time range.'));
    assert.ok(tooLong instanceof QueryTooSlowError && tooLong instanceof ServerError);
    assert.equal(tooLong.userMessage, 'Estimated query execution time is too long. Try reducing its scope by changing the time range.');
    const timeout = map(504, body('server_error', 'error', 'Query has hit the max execution time before completing. See our docs for how to improve your query performance. You may need to materialize.'));
    assert.ok(timeout instanceof QueryTooSlowError);
    assert.match(timeout.userMessage, /^Query has hit the max execution time before completing\./);
    const gateway = map(504, '<html><head><title>504 Gateway Time-out</title></head></html>');
    assert.ok(gateway instanceof QueryTooSlowError);
    assert.match(gateway.userMessage, /took too long \(HTTP 504\)/);
  });

  test('a redirect is refused and names only the target host', () => {
    const error = map(302, '', 'GET /api/projects/', { location: 'https://user:pw@evil.example/steal?x=1' });
    assert.ok(error instanceof UnexpectedStatusError);
    assert.match(error.userMessage, /evil\.example/);
    assert.doesNotMatch(JSON.stringify(error), /pw@|steal/);
  });

  test('an unknown status still gives a PostHogError', () => {
    const error = map(418, 'teapot');
    assert.ok(error instanceof PostHogError);
    assert.equal(error.status, 418);
  });
});

describe('parseErrorBody', () => {
  test('reads PostHog bodies', () => {
    assert.deepEqual(parseErrorBody(body('validation_error', 'required', 'This field is required.', 'title')), {
      type: 'validation_error',
      code: 'required',
      detail: 'This field is required.',
      attr: 'title',
    });
  });

  test('tolerates empty, HTML, plain DRF field errors and odd JSON', () => {
    assert.deepEqual(parseErrorBody(''), {});
    assert.equal(parseErrorBody('<!doctype html><p>oops</p>').detail, undefined);
    assert.deepEqual(parseErrorBody('{"name": ["This field may not be blank."]}'), { detail: 'This field may not be blank.', attr: 'name' });
    assert.equal(parseErrorBody('["Something went wrong"]').detail, 'Something went wrong');
    assert.equal(parseErrorBody('42').detail, '42');
    assert.equal(parseErrorBody('{"detail": {"inner": "nested text"}}').detail, 'nested text');
  });
});

describe('retryAfterSeconds', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  test('header seconds', () => assert.equal(retryAfterSeconds('5', undefined, now), 5));
  test('header HTTP date', () => assert.equal(retryAfterSeconds('Wed, 01 Jan 2025 00:00:30 GMT', undefined, now), 30));
  test('past HTTP date is 0', () => assert.equal(retryAfterSeconds('Tue, 31 Dec 2024 23:00:00 GMT', undefined, now), 0));
  test('detail text, singular and plural', () => {
    assert.equal(retryAfterSeconds(undefined, 'Request was throttled. Expected available in 1 second.', now), 1);
    assert.equal(retryAfterSeconds(undefined, 'Request was throttled. Expected available in 59 seconds.', now), 59);
  });
  test('nothing known', () => assert.equal(retryAfterSeconds(undefined, 'Request was throttled.', now), undefined));
});
