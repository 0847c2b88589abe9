import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Notebook, NOT_MODIFIED } from '../../../../src/api';
import { type NotebookCalls, PollingUpdates } from '../../../../src/notebooks/session';
import { notebook } from '../fixtures';
import { MemoryLog } from './sessionFakes';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PollingUpdates', () => {
  function setUp(seconds: number, answers: (Notebook | typeof NOT_MODIFIED | Error)[]) {
    const asked: (number | undefined)[] = [];
    const accepted: Notebook[] = [];
    const known = notebook({ version: 3 });
    const calls = {
      get: async (_projectId: number, _shortId: string, options?: { ifNoneMatchVersion?: number }) => {
        asked.push(options?.ifNoneMatchVersion);
        const answer = answers.shift() ?? NOT_MODIFIED;
        if (answer instanceof Error) {
          throw answer;
        }
        return answer;
      },
    } as unknown as NotebookCalls;
    const log = new MemoryLog();
    const target = { ref: { connectionId: 'c', projectId: 1, shortId: known.short_id }, latestKnown: () => known, acceptRemote: async (value: Notebook) => void accepted.push(value) };
    return { updates: new PollingUpdates(target, async () => calls, () => seconds, log), asked, accepted, known, log };
  }

  test('polls every interval once started, with the known version as If-None-Match, and stops', async () => {
    const newer = notebook({ version: 4 });
    const { updates, asked, accepted, known } = setUp(0.03, [NOT_MODIFIED, newer]);
    updates.start();
    await wait(110);
    updates.stop();
    const polls = asked.length;
    assert.ok(polls >= 2, `${polls} polls`);
    assert.ok(asked.every((version) => version === 3));
    assert.deepEqual(accepted.slice(0, 2), [known, newer], 'a 304 hands back what is known, a 200 the newer version');
    await wait(80);
    assert.equal(asked.length, polls, 'nothing after stop');
  });

  test('an interval of 0 never polls by itself; checkNow looks once even if asked twice at once; a failure is logged', async () => {
    const { updates, asked, log } = setUp(0, [new Error('offline')]);
    updates.start();
    await wait(30);
    assert.equal(asked.length, 0);
    await Promise.all([updates.checkNow(), updates.checkNow()]);
    assert.equal(asked.length, 1);
    assert.match(log.lines.join('\n'), /Could not check notebook .* offline/);
    updates.dispose();
  });
});
