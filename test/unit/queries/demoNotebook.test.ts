import '../support/vscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import type { PostHogClient } from '../../../src/api';
import { findQueryCards } from '../../../src/queries';
import type { LocalApi } from '../../api-server';
import { withLocalApiClient } from '../../support/localApiClient';

let api: LocalApi;
let client: PostHogClient;
let projectId: number;
withLocalApiClient({ seed: 'demo' }, (started) => {
  ({ api, client, projectId } = started);
});

describe('the demo notebook of query cards (npm start)', () => {
  test('"Weekly product numbers" has a trend, two tables and a SQL cell, and each runs against the local API', async () => {
    const notebook = api.store.notebooksOf(projectId).find((entry) => entry.title === 'Weekly product numbers');
    assert.ok(notebook, 'seeded in the first project');
    const cards = findQueryCards(notebook.text_content ?? '');
    assert.deepEqual(cards.map((card) => card.query?.kind), ['TrendsQuery', 'HogQLQuery', 'EventsQuery', 'HogQLQuery']);
    assert.deepEqual(cards.map((card) => card.label), ['Pageviews and uploads, daily', 'Top events', 'Latest signups', 'Uploads this week']);
    for (const card of cards) {
      const response = (await client.queries.run(projectId, card.query!, z.looseObject({}))) as { results?: unknown[] };
      assert.ok(Array.isArray(response.results) && response.results.length > 0, `${card.label}: rows`);
    }
  });
});
