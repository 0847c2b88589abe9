import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type CheckOutcome, CheckScheduler, type Timers } from '../../../src/hogql/checkScheduler';

/** Timers run by hand: `fire()` runs every timer set so far and not cleared. */
class ManualTimers implements Timers {
  private readonly pending = new Map<number, () => void>();
  private next = 0;
  readonly delays: number[] = [];
  set(callback: () => void, ms: number): unknown {
    this.delays.push(ms);
    this.pending.set(++this.next, callback);
    return this.next;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  get count(): number {
    return this.pending.size;
  }
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    due.forEach((callback) => callback());
  }
}

interface Call {
  readonly text: string;
  resolve(value: string): void;
  reject(error: unknown): void;
}

function setup() {
  const timers = new ManualTimers();
  const calls: Call[] = [];
  const delivered: { key: string; version: number; outcome: CheckOutcome<string> }[] = [];
  const scheduler = new CheckScheduler<string>({
    check: (_key, text) => new Promise<string>((resolve, reject) => calls.push({ text, resolve, reject })),
    deliver: (key, version, outcome) => delivered.push({ key, version, outcome }),
    delayMs: () => 600,
    timers,
  });
  return { timers, calls, delivered, scheduler };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('CheckScheduler', () => {
  test('checks once typing pauses, with the latest text only', async () => {
    const { timers, calls, delivered, scheduler } = setup();
    scheduler.changed('a', 1, 'sel');
    scheduler.changed('a', 2, 'selec');
    scheduler.changed('a', 3, 'select 1');
    assert.equal(calls.length, 0, 'nothing is sent while typing');
    assert.equal(timers.count, 1, 'each change restarts the one pause');
    assert.deepEqual(timers.delays, [600, 600, 600]);
    timers.fire();
    assert.deepEqual(calls.map((call) => call.text), ['select 1']);
    calls[0]!.resolve('ok');
    await settle();
    assert.deepEqual(delivered, [{ key: 'a', version: 3, outcome: { ok: true, value: 'ok' } }]);
  });

  test('a newer text waits for the check in flight, whose stale answer is dropped', async () => {
    const { timers, calls, delivered, scheduler } = setup();
    scheduler.changed('a', 1, 'select 1');
    timers.fire();
    scheduler.changed('a', 2, 'select 2');
    timers.fire();
    assert.equal(calls.length, 1, 'one check in flight per document');
    assert.ok(scheduler.isChecking('a'));
    calls[0]!.resolve('for 1');
    await settle();
    assert.deepEqual(delivered, [], 'the answer for the older text is not delivered');
    assert.deepEqual(calls.map((call) => call.text), ['select 1', 'select 2'], 'the newer text goes once the first is answered');
    calls[1]!.resolve('for 2');
    await settle();
    assert.deepEqual(delivered, [{ key: 'a', version: 2, outcome: { ok: true, value: 'for 2' } }]);
  });

  test('a change during the check but before its pause ends is not sent early', async () => {
    const { timers, calls, scheduler } = setup();
    scheduler.changed('a', 1, 'select 1');
    timers.fire();
    scheduler.changed('a', 2, 'select 2');
    calls[0]!.resolve('x');
    await settle();
    assert.equal(calls.length, 1, 'still typing: the pause has not ended');
    timers.fire();
    assert.equal(calls.length, 2);
  });

  test('documents are checked independently, failures delivered, closed ones dropped', async () => {
    const { timers, calls, delivered, scheduler } = setup();
    scheduler.changed('a', 1, 'a');
    scheduler.changed('b', 1, 'b');
    timers.fire();
    assert.equal(calls.length, 2);
    scheduler.close('a');
    calls[0]!.resolve('late');
    calls[1]!.reject(new Error('offline'));
    await settle();
    assert.equal(delivered.length, 1);
    assert.equal(delivered[0]!.key, 'b');
    assert.equal(delivered[0]!.outcome.ok, false);
  });

  test('closing clears the pause: nothing is sent for a closed document', () => {
    const { timers, calls, scheduler } = setup();
    scheduler.changed('a', 1, 'a');
    scheduler.close('a');
    assert.equal(timers.count, 0);
    timers.fire();
    assert.equal(calls.length, 0);
  });
});
