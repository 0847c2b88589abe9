import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { EventsCommands } from '../../src/events/eventsCommands';
import type { EventsPanel } from '../../src/events/eventsPanel';
import { LIVE_INTERVAL_SETTING, LIVE_KEPT_SETTING } from '../../src/events/livePanel';
import { defaultFilters, type ExtensionMessage, type FilterState } from '../../src/events/protocol';
import { EventsNode } from '../../src/events/eventsNode';
import { LEGACY_EVENTS_API_SETTING } from '../../src/events/eventSource';
import { ExplorerHarness, installedExtensionUri } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(100);
  }
}

function record(panel: EventsPanel): ExtensionMessage[] {
  const posted: ExtensionMessage[] = [];
  panel.onDidPost((message) => posted.push(message));
  return posted;
}

const liveIds = (posted: ExtensionMessage[]) => posted.flatMap((message) => (message.type === 'liveRows' ? message.rows.map((row) => row.id) : []));
const liveTexts = (posted: ExtensionMessage[]) => posted.flatMap((message) => (message.type === 'liveState' ? [message.text] : []));

describe('Live events (in the editor)', function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;
  let commands: EventsCommands;
  let eventsNode: EventsNode;
  let projectId: number;
  let panel: EventsPanel;
  const config = vscode.workspace.getConfiguration();

  /** Live polls of the project (GET events with an `after` the panel did not type). */
  async function polls(since = 0): Promise<RecordedRequest[]> {
    return (await localApi.requests()).filter((request) => request.method === 'GET' && request.path === `/api/projects/${projectId}/events/`).slice(since);
  }

  /** A fresh listing filtered to one event name, and Live on; resolves once Live has started. */
  async function watch(event: string, extra: Partial<FilterState> = {}): Promise<ExtensionMessage[]> {
    const posted = record(panel);
    panel.live.set(false);
    await panel.receive({ type: 'query', filters: { ...defaultFilters(), event, after: '-1h', ...extra } });
    await localApi.clearRequests();
    panel.live.set(true);
    await until('Live is watching', () => liveTexts(posted).some((text) => /checked every/.test(text)));
    return posted;
  }

  before(async () => {
    await config.update(LIVE_INTERVAL_SETTING, 1, vscode.ConfigurationTarget.Global);
    // These tests follow Live's polls of the legacy events list (the tail is the same through EventsQuery).
    await config.update(LEGACY_EVENTS_API_SETTING, true, vscode.ConfigurationTarget.Global);
    harness = new ExplorerHarness(runnerSecrets(), { extensionUri: installedExtensionUri() });
    await harness.signInToLocalApi();
    commands = harness.events.commands;
    const node = await harness.child('Hedgebox Inc.', 'Hedgebox', 'Events');
    assert.ok(node instanceof EventsNode);
    eventsNode = node;
    projectId = node.project.id;
  });
  after(async () => {
    await harness.dispose();
    await config.update(LIVE_INTERVAL_SETTING, undefined, vscode.ConfigurationTarget.Global);
    await config.update(LIVE_KEPT_SETTING, undefined, vscode.ConfigurationTarget.Global);
    await config.update(LEGACY_EVENTS_API_SETTING, undefined, vscode.ConfigurationTarget.Global);
  });

  it('PostHog: Watch Live Events opens the panel with Live on', async () => {
    console.log(`      (window focused: ${vscode.window.state.focused})`);
    assert.ok((await vscode.commands.getCommands(true)).includes('posthogExplorer.tailEvents'), 'the extension registers the command');
    const opened = await commands.tailEvents(eventsNode);
    assert.ok(opened);
    panel = opened;
    // The webview loads apart and then asks for the list again: wait for it, so that its listing does not
    // race the later tests' (a listing started after an event arrives shows it as listed, not as live).
    let ready = false;
    panel.onDidReceive((message) => (ready ||= message.type === 'ready'));
    assert.equal(panel.live.on, true);
    await until('the webview is ready', () => ready);
    await until('the first live poll', async () => (await polls()).some((request) => request.query['limit'] === '1000'));
  });

  it('shows events with the same timestamp as the newest shown once each: none missed, none repeated', async () => {
    const posted = await watch('live-equal');
    const first = await localApi.addEventsNow(projectId, 2, 'live-equal');
    await until('the first two events', () => liveIds(posted).length >= 2);
    const twin = await localApi.addEventsNow(projectId, 1, 'live-equal', first.timestamp);
    await until('the event sharing their timestamp', () => liveIds(posted).includes(twin.ids[0]!));
    await sleep(2_500); // more polls: nothing comes twice
    assert.deepEqual(liveIds(posted).sort(), [...first.ids, ...twin.ids].sort());
    const sent = (await polls()).map((request) => request.query);
    const later = sent.filter((query) => query['after'] !== sent[0]?.['after']);
    assert.ok(later.length > 0, 'the cursor moved');
    const newest = Date.parse(first.timestamp);
    assert.ok(later.every((query) => Date.parse(String(query['after'])) === newest - 1_000), 'after = the newest shown, less a second');
  });

  it('keeps the filters: every poll asks for the event typed, never with `before`', async () => {
    await watch('live-filtered', { before: '-1min' });
    await localApi.addEventsNow(projectId, 1, 'another-event');
    await sleep(6_000); // one panel polls every 5 s at most (its share of the key's hourly limit)
    const sent = await polls();
    assert.ok(sent.length >= 2);
    assert.ok(sent.every((request) => request.query['event'] === 'live-filtered' && request.query['before'] === undefined), JSON.stringify(sent.map((r) => r.query)));
  });

  it('pauses while the panel is hidden and catches up when it is shown', async () => {
    const posted = await watch('live-hidden');
    await vscode.commands.executeCommand('workbench.action.files.newUntitledFile');
    await until('the panel is hidden', () => !panel.panel.visible);
    await until('Live says it is paused', () => liveTexts(posted).some((text) => /paused while the panel is hidden/.test(text)), 5_000);
    await sleep(500);
    await localApi.clearRequests();
    const added = await localApi.addEventsNow(projectId, 1, 'live-hidden');
    await sleep(3_000);
    assert.deepEqual(await polls(), [], 'no polls while hidden');
    const received: string[] = [];
    panel.onDidReceive((message) => received.push(message.type));
    panel.panel.reveal();
    // Shown again, the webview is rebuilt (no retainContextWhenHidden): it lists again, and Live goes on.
    await until('the webview is back', () => received.includes('ready'));
    await until('the event added while hidden', () => liveIds(posted).includes(added.ids[0]!));
    assert.equal(panel.live.on, true);
  });

  it('backs off on 503 after the client\'s own retries, then recovers', async () => {
    const posted = await watch('live-503');
    await localApi.injectFault({ path: `/api/projects/${projectId}/events/$`, status: 503, times: 4 });
    await until('Live backs off', () => liveTexts(posted).find((text) => /HTTP 503.*Checking again in \d+ s/.test(text))).catch((error: Error) => {
      throw new Error(`${error.message}; Live said: ${JSON.stringify(liveTexts(posted))}`);
    });
    const added = await localApi.addEventsNow(projectId, 1, 'live-503');
    await until('Live recovers and shows the event', () => liveIds(posted).includes(added.ids[0]!), 40_000);
    assert.match(liveTexts(posted).at(-1) ?? '', /checked every 5 s, slowed down: Live keeps to 720 of the 1,200 events requests an hour/);
  });

  it('backs off on 429 for at least the wait PostHog names, and says so', async () => {
    const posted = await watch('live-429');
    await localApi.injectFault({ path: `/api/projects/${projectId}/events/$`, status: 429, times: 4, throttleSeconds: 2 });
    const text = await until('Live backs off', () => liveTexts(posted).find((entry) => /limited the requests of this API key.*Checking again in \d+ s/i.test(entry)), 30_000);
    assert.ok(Number(/in (\d+) s\.$/.exec(text)?.[1]) >= 2, text);
    await until('Live watches again', () => /checked every/.test(liveTexts(posted).at(-1) ?? ''), 30_000);
  });

  it('one poll brings at most the kept events (posthogExplorer.events.liveKeptEvents)', async () => {
    await config.update(LIVE_KEPT_SETTING, 100, vscode.ConfigurationTarget.Global);
    const posted = await watch('live-many');
    await localApi.addEventsNow(projectId, 150, 'live-many');
    await until('the batch', () => posted.some((message) => message.type === 'liveRows'));
    const batch = posted.find((message) => message.type === 'liveRows');
    assert.ok(batch?.type === 'liveRows' && batch.rows.length === 100 && batch.keep === 100);
    await config.update(LIVE_KEPT_SETTING, undefined, vscode.ConfigurationTarget.Global);
  });

  it('stops with the panel: no poll after it closes', async () => {
    await watch('live-close');
    panel.panel.dispose();
    await sleep(300);
    await localApi.clearRequests();
    await sleep(2_500);
    assert.deepEqual(await polls(), []);
  });
});
