import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Notebook, NotebooksApi, Sleep } from '../../../../src/api';
import { type NotebookCalls, type RemotePresence, type RemoteUpdate, StreamSlots, type StreamTarget, StreamUpdates } from '../../../../src/notebooks/session';
import { FOLLOW_UP_SPACING_MS, UNREADABLE_BURST_MS } from '../../../../src/notebooks/session/followUps';
import type { LocalApi } from '../../../api-server';
import { type FloodKind, flood } from '../../../api-server/pressure-control';
import { withLocalApiClient } from '../../../support/localApiClient';
import { MemoryLog } from './sessionFakes';

/** A clock whose waits end only when the test moves it on. */
function heldClock() {
  let now = Date.UTC(2026, 0, 5, 9);
  let waits: { until: number; resolve: () => void }[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const wait = { until: now + ms, resolve };
      waits.push(wait);
      signal?.addEventListener('abort', () => {
        waits = waits.filter((other) => other !== wait);
        reject(signal.reason);
      });
    });
  return {
    now: () => now,
    sleep,
    waiting: () => waits.length,
    /** Moves the clock `ms` on and ends the waits that are over. */
    advance(ms: number) {
      now += ms;
      const over = waits.filter((wait) => wait.until <= now);
      waits = waits.filter((wait) => wait.until > now);
      over.forEach((wait) => wait.resolve());
    },
  };
}

describe('stream discipline under floods (local API)', () => {
  let api: LocalApi;
  let calls: NotebooksApi;
  let projectId: number;
  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, projectId } = started);
    calls = started.client.notebooks;
  });

  async function until(what: string, check: () => boolean): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * A legacy notebook followed by StreamUpdates for a session that takes what it is given as a session does
   * (a diff-less update: one GET). Counts the GETs and how many ran at once.
   */
  async function followLegacy() {
    api.store.settings.newNotebooksAsMarkdown = false;
    const stored = await calls
      .create(projectId, { title: 'Legacy under pressure', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Old.' }] }] } })
      .finally(() => (api.store.settings.newNotebooksAsMarkdown = true));
    const ref = { connectionId: 'c', projectId, shortId: stored.short_id };
    let known = await calls.get(projectId, ref.shortId);
    const state = { gets: 0, inFlight: 0, mostAtOnce: 0, presences: [] as RemotePresence[] };
    const counted: NotebookCalls = {
      update: calls.update.bind(calls),
      collab: calls.collab,
      get: (async (...args: Parameters<NotebookCalls['get']>) => {
        state.gets++;
        state.mostAtOnce = Math.max(state.mostAtOnce, ++state.inFlight);
        try {
          return await calls.get(...args);
        } finally {
          state.inFlight--;
        }
      }) as NotebookCalls['get'],
    };
    const take = (notebook: Notebook) => {
      if (notebook.version > known.version) known = notebook;
    };
    const target: StreamTarget = {
      ref,
      latestKnown: () => known,
      acceptRemote: async (notebook) => take(notebook),
      applyUpdate: async (update: RemoteUpdate) => {
        if (update.version > known.version) take(await counted.get(projectId, ref.shortId));
      },
      presence: (presence) => state.presences.push(presence),
      streaming: () => undefined,
      knownSince: () => clock.now(),
    };
    const clock = heldClock();
    const log = new MemoryLog();
    const updates = new StreamUpdates(target, async () => counted, log, { fallback: () => assert.fail('no polling'), budget: new StreamSlots(4), sleep: clock.sleep, now: clock.now });
    updates.start();
    await until('the stream', () => api.store.collab.listenerCount() === 1);
    const notebook = api.store.getNotebook(projectId, ref.shortId)!;
    /** Floods the stream, then waits until the stream has read it all (a marker caret after it). */
    const floodAndRead = async (kind: FloodKind, count: number) => {
      const version = flood(api.store, notebook, kind, count);
      api.store.collab.publishPresence(notebook, { type: 'presence', client_id: 'marker', user_id: 1, user_name: 'Marker', version, cursor: { head: 0 } });
      await until('the flood read', () => state.presences.some((presence) => presence.clientId === 'marker'));
      state.presences.length = 0;
      return version;
    };
    return { state, clock, log, updates, floodAndRead, known: () => known };
  }

  test('a teammate\'s 1,000 steps cost two GETs: the first taken at once, the rest coalesced into one after the spacing, never two at once', async () => {
    const { state, clock, updates, floodAndRead, known } = await followLegacy();
    try {
      await floodAndRead('step', 1);
      await until('the first step taken', () => state.inFlight === 0 && state.gets === 1);
      const version = await floodAndRead('step', 999);
      await until('the read waiting for its turn', () => clock.waiting() === 1);
      assert.equal(state.gets, 1, 'the other 999 wait as one pending read');
      clock.advance(FOLLOW_UP_SPACING_MS);
      await until('the coalesced read', () => known().version === version);
      assert.equal(state.gets, 2);
      assert.equal(state.mostAtOnce, 1);
      assert.equal(clock.waiting(), 0, 'nothing more pending');
    } finally {
      updates.dispose();
    }
  });

  test('updates without a diff (PATCHes) coalesce the same way', async () => {
    const { state, clock, updates, floodAndRead, known } = await followLegacy();
    try {
      await floodAndRead('patch', 1);
      await until('the first update taken', () => state.gets === 1 && state.inFlight === 0);
      const version = await floodAndRead('patch', 499);
      await until('the read waiting for its turn', () => clock.waiting() === 1);
      assert.equal(state.gets, 1);
      clock.advance(FOLLOW_UP_SPACING_MS);
      await until('the coalesced read', () => known().version === version);
      assert.equal(state.gets, 2);
    } finally {
      updates.dispose();
    }
  });

  test('1,000 unreadable events are one log line and one GET, after the burst', async () => {
    const { state, clock, log, updates, floodAndRead } = await followLegacy();
    try {
      await floodAndRead('unreadable', 1_000);
      assert.equal(state.gets, 0);
      assert.deepEqual(log.lines, [], 'nothing logged during the burst');
      clock.advance(UNREADABLE_BURST_MS);
      await until('the check', () => state.gets === 1 && state.inFlight === 0);
      assert.equal(log.lines.length, 1);
      assert.match(log.lines[0]!, /skipped 1000 events on PostHog's stream that could not be read \(the first: a presence event without a client id\); checking the notebook/);
      await floodAndRead('unreadable', 3);
      clock.advance(UNREADABLE_BURST_MS);
      await until('the second burst', () => log.lines.length === 2);
      clock.advance(FOLLOW_UP_SPACING_MS);
      await until('its check', () => state.gets === 2);
    } finally {
      updates.dispose();
    }
  });
});
