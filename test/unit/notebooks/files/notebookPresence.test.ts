import { standIn } from '../../support/vscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import * as vscode from 'vscode';
import { NotebookPresence, REPAINT_MS } from '../../../../src/notebooks/files/notebookPresence';
import type { NotebookEditors } from '../../../../src/notebooks/files/notebookEditors';
import type { NotebookSession, NotebookSessions, SessionChange } from '../../../../src/notebooks/session';
import type { CaretDecoration, WindowApi } from '../../../../src/workbench/window';

/** The editor glue under node's test runner, with the `vscode` stand-in and node's mock timers. */
const uri = vscode.Uri.parse('posthog://c1/1/notebooks/Weekly%20review%20(abc123).md');

/** One open notebook whose collaborators' carets the test moves, and every repaint of its editor. */
function presenceOf() {
  const changes = new standIn.EventEmitter<{ session: NotebookSession; change: SessionChange }>();
  const caretMoves = new standIn.EventEmitter<vscode.Uri>();
  let carets = [{ clientId: 'web-1', offset: 0, author: { name: 'Lee Chen' } }];
  const published: number[] = [];
  const session = {
    ref: { connectionId: 'c1', projectId: 1, shortId: 'abc123' },
    notebook: { title: 'Weekly review', version: 3 },
    caretsIn: () => carets,
    collaborators: { names: () => ['Lee Chen'] },
    publishCaret: (_uri: string, offset: number) => published.push(offset),
  } as unknown as NotebookSession;
  const sessions = { onDidChange: changes.event, all: () => [session], get: () => session } as unknown as NotebookSessions;
  const editors = { documentsOf: () => [{ uri }] } as unknown as NotebookEditors;
  const repaints: CaretDecoration[][] = [];
  const window = {
    editors: {
      showCarets: (_uri: vscode.Uri, shown: CaretDecoration[]) => repaints.push(shown),
      onDidMoveCaret: (listener: (uri: vscode.Uri, offset: number) => void) => caretMoves.event((moved) => listener(moved, 7)),
      onDidChangeActive: new standIn.EventEmitter<void>().event,
      activeUri: () => uri,
    },
    setStatusBarMessage: () => undefined,
    createStatusBarItem: () => ({ show: () => undefined, hide: () => undefined, dispose: () => undefined }),
    state: { focused: true },
  } as unknown as WindowApi;
  const presence = new NotebookPresence('posthog', sessions, editors, window, { info: () => undefined });
  return {
    presence,
    repaints,
    published,
    /** A presence event: the collaborator's caret moved to `offset`. */
    moveTheirs: (offset: number) => {
      carets = [{ ...carets[0]!, offset }];
      changes.fire({ session, change: { kind: 'presence' } as SessionChange });
    },
    /** A keystroke of the user: VS Code moves their caret. */
    type: () => caretMoves.fire(uri),
  };
}

describe('others\' carets repaint a few times a second, whatever PostHog sends', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'setInterval'] }));
  afterEach(() => mock.timers.reset());

  test('50 presence events at once repaint once, after REPAINT_MS, with the last caret', () => {
    const { presence, repaints, moveTheirs } = presenceOf();
    for (let offset = 1; offset <= 50; offset++) moveTheirs(offset);
    assert.equal(repaints.length, 0, 'nothing painted before the burst settles');
    mock.timers.tick(REPAINT_MS);
    assert.deepEqual(repaints.map((shown) => shown.map((caret) => caret.offset)), [[50]]);
    presence.dispose();
  });

  test('50 presence events over a second (one every 20 ms) repaint at most five times', () => {
    const { presence, repaints, moveTheirs } = presenceOf();
    for (let offset = 1; offset <= 50; offset++) {
      moveTheirs(offset);
      mock.timers.tick(20);
    }
    mock.timers.tick(REPAINT_MS);
    assert.ok(repaints.length >= 4 && repaints.length <= 5, `${repaints.length} repaints`);
    assert.deepEqual(repaints.at(-1)?.map((caret) => caret.offset), [50], 'the last one shows where they are');
    presence.dispose();
  });

  test('50 keystrokes repaint nothing (decorations move with the text), also amid presence events', () => {
    const { presence, repaints, published, moveTheirs, type } = presenceOf();
    for (let key = 0; key < 50; key++) {
      type();
      mock.timers.tick(10);
    }
    assert.equal(repaints.length, 0, 'typing alone repaints nothing');
    assert.ok(published.length > 0, 'the own caret is still shared');
    for (let key = 0; key < 50; key++) {
      type();
      moveTheirs(key);
      mock.timers.tick(10);
    }
    mock.timers.tick(REPAINT_MS);
    assert.ok(repaints.length <= 3, `${repaints.length} repaints for 500 ms of typing while they move`);
    presence.dispose();
  });
});
