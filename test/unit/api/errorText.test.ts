import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorText, NotFoundError } from '../../../src/api';

describe('errorText', () => {
  test('errorText: PostHog errors in plain words, other errors by message, anything else as text', () => {
    const notFound = new NotFoundError({ endpoint: 'GET /api/projects/1/', status: 404 });
    assert.equal(errorText(notFound), notFound.userMessage);
    assert.match(errorText(notFound), /could not find this item/);
    assert.equal(errorText(new Error('boom')), 'boom');
    assert.equal(errorText('plain'), 'plain');
  });
});
