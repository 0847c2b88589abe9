// The events panel in Live mode in the real editor: `minutes` of 20 new events a second on the demo 'Hedgebox'
// project, the view at the newest rows. CPU of the webview's renderer and of the extension host, their memory,
// the rows in the DOM and in the table, and the polls made.
import { readFileSync, readdirSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { delay } from '../host/processes';
import { eventsFrame, heap, openBenchEditor, sessionFor } from './editor';
import type { Figure } from './results';

const EVENTS_PER_SECOND = 20;
const SAMPLE_MS = 10_000;
const DOM_ROWS_BUDGET = 200;
const KEPT_EVENTS = 10_000;
const POLLS_PER_MINUTE_BUDGET = 12; // one panel: Live keeps to 720 requests an hour of the key (src/api/budget.ts)
const CLOCK_TICKS = 100;
/** The same events arriving with the panel open and Live off: what the workbench costs anyway. */
const BASELINE_MS = 60_000;

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
function processStats(pid: number): { cpuMs: number; rssMB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuMs, rssMB: Number(rss ?? 0) / 1024 };
}

/** The VS Code server's extension host: the process under `root` started with --type=extensionHost. */
function extensionHostPid(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=extensionHost')) return pid;
    } catch {
      // gone
    }
    queue.push(...(children.get(pid) ?? []));
  }
  throw new Error('No extension host under the VS Code server');
}

/** Main-thread busy time of the renderer that runs the webview (CDP Performance: TaskDuration, seconds). */
async function busyMs(session: CDPSession): Promise<number> {
  const { metrics } = await session.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

export async function benchLive(minutes: number): Promise<Figure[]> {
  const editor = await openBenchEditor({ seed: 'demo' });
  try {
    const { api, page, workbench, server } = editor;
    const project = api.store.projects.find((entry) => entry.name === 'Hedgebox')!;
    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    await workbench.expandTreeItem('Hedgebox Inc.');
    await workbench.expandTreeItem('Hedgebox');
    await workbench.clickTreeItem('Events');
    const frame = await eventsFrame(page, 'Hedgebox');
    await frame.locator('.grid .row.data').first().waitFor({ timeout: 30_000 });
    const { session, outOfProcess } = await sessionFor(page, frame);
    await session.send('Performance.enable');
    const hostPid = extensionHostPid(server.process.child.pid!);

    api.setLiveEvents(project.id, EVENTS_PER_SECOND);
    const idle = { busyMs: await busyMs(session), host: processStats(hostPid), at: Date.now() };
    await delay(BASELINE_MS);
    const idleEnd = { busyMs: await busyMs(session), host: processStats(hostPid), at: Date.now() };
    const idleWall = idleEnd.at - idle.at;

    const status = frame.locator('.live-status');
    await frame.locator('.live-toggle').click();
    await workbench.poll(async () => /checked every/.test(await status.innerText()), 'Live is watching');
    const before = { heap: await heap(session, frame), busyMs: await busyMs(session), host: processStats(hostPid), at: Date.now() };
    api.clearRequests();
    const eventsBefore = api.store.eventsOf(project.id).size;
    let maxRows = 0;
    const states = new Set<string>();
    const end = Date.now() + minutes * 60_000;
    while (Date.now() < end) {
      await delay(Math.min(SAMPLE_MS, Math.max(0, end - Date.now())));
      maxRows = Math.max(maxRows, await frame.evaluate(() => document.querySelectorAll('.grid .row.data').length));
      states.add((await status.innerText()).replace(/\d+/g, 'N'));
    }
    api.setLiveEvents(project.id, 0);
    const wallMs = Date.now() - before.at;
    const after = { heap: await heap(session, frame), busyMs: await busyMs(session), host: processStats(hostPid) };
    const arrived = api.store.eventsOf(project.id).size - eventsBefore;
    const kept = await frame.evaluate(() => Number((/([\d,]+) events/.exec(document.querySelector('.status')?.textContent ?? '')?.[1] ?? '0').replace(/,/g, '')));
    const polls = api.requests.filter((request) => request.path === `/api/projects/${project.id}/events/` && request.query['after']).length;
    const pollsPerMinute = polls / (wallMs / 60_000);
    const webviewBusy = after.busyMs - before.busyMs;
    const hostCpu = after.host.cpuMs - before.host.cpuMs;
    const percent = (ms: number) => `${((ms / wallMs) * 100).toFixed(2)} % of one core`;
    const idlePercent = (ms: number) => `${((ms / idleWall) * 100).toFixed(2)} %`;
    const idleWebview = idleEnd.busyMs - idle.busyMs;
    const idleHost = idleEnd.host.cpuMs - idle.host.cpuMs;
    const section = `Live events in the real editor (${minutes} min of ${EVENTS_PER_SECOND} events/s on demo 'Hedgebox', view at the newest rows, interval 5 s)`;
    const renderer = outOfProcess ? "webview process's" : 'renderer (webview shares the workbench process)';
    const paused = [...states].filter((state) => !/checked every/.test(state));
    return [
      { section, what: 'events that arrived / rows kept in the table', value: kept, unit: 'rows', budget: `≤ ${KEPT_EVENTS.toLocaleString('en-US')} kept`, pass: kept > 0 && kept <= KEPT_EVENTS, note: `${arrived.toLocaleString('en-US')} arrived` },
      { section, what: 'most table rows in the DOM while it ran', value: maxRows, unit: 'rows', budget: `≤ ${DOM_ROWS_BUDGET}`, pass: maxRows > 0 && maxRows <= DOM_ROWS_BUDGET },
      { section, what: 'polls (requests with `after`) a minute', value: pollsPerMinute, unit: 'requests', budget: `≤ ${POLLS_PER_MINUTE_BUDGET}`, pass: pollsPerMinute <= POLLS_PER_MINUTE_BUDGET, note: `${polls} in all${paused.length ? `; also said: ${paused.join(' / ')}` : ''}` },
      { section, what: `${renderer} main thread busy (CDP TaskDuration)`, value: webviewBusy, unit: 'ms', note: `${percent(webviewBusy)}; with Live off: ${idlePercent(idleWebview)}` },
      { section, what: 'extension host CPU (user + system)', value: hostCpu, unit: 'ms', note: `${percent(hostCpu)}; with Live off: ${idlePercent(idleHost)}` },
      { section, what: `${renderer} JS heap after GC, at the end`, value: after.heap.usedMB, unit: 'MB', note: `growth over the run: ${(after.heap.usedMB - before.heap.usedMB).toFixed(1)} MB; webview performance.memory ${after.heap.performanceMemoryMB.toFixed(1)} MB` },
      { section, what: 'extension host resident memory, at the end', value: after.host.rssMB, unit: 'MB', note: `growth over the run: ${(after.host.rssMB - before.host.rssMB).toFixed(1)} MB` },
    ];
  } finally {
    await editor.close();
  }
}
