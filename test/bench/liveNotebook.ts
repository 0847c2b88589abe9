// Live notebooks: how soon another client's save shows in an open editor (PostHog's stream, against polling every
// 30 s), what an open, idle notebook costs in requests (stream against polling), and merging another client's change
// into a 2 MB notebook with unsaved edits. The sessions are the extension's own (src/notebooks/session) with the
// unit tests' stand-in for VS Code's editors; the other client's saves are made in the local API's process (its
// versioned Markdown save, as PostHog's web app makes them), so a figure starts when PostHog holds the change.
import { PostHogClient } from '../../src/api';
import { type NotebookRef, type NotebookSession, NotebookSessions } from '../../src/notebooks/session';
import { planRemoteMerge, textEdits } from '../../src/notebooks/session/remoteMerge';
import { FakeEditors, MemoryBaseStore, MemoryLog } from '../unit/notebooks/session/sessionFakes';
import type { BenchApi } from './benchApi';
import { type Figure, median } from './results';

const EDITS = 100;
const POLL_SECONDS = 30;
const BIG_BYTES = 2 * 1024 * 1024;
const MERGE_ROUNDS = 3;
const PARAGRAPHS = 20;

/** The editors of one window, which waits for a text to show. */
class WatchedEditors extends FakeEditors {
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  override async replaceText(uri: string, expected: string, text: string): Promise<boolean> {
    const replaced = await super.replaceText(uri, expected, text);
    if (replaced) this.settle(text);
    return replaced;
  }

  until(test: (text: string) => boolean): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private settle(text: string): void {
    const ready = this.waiters.filter((waiter) => waiter.test(text));
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    ready.forEach((waiter) => waiter.resolve());
  }
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function paragraphs(count: number, words = 12): string {
  const lines = ['# Live bench', ''];
  for (let index = 1; index <= count; index++) {
    lines.push(`Paragraph ${index}: ${Array.from({ length: words }, (_, word) => `word${word}`).join(' ')}, notes taken while exploring the data.`, '');
  }
  return lines.join('\n');
}

interface Window {
  readonly sessions: NotebookSessions;
  readonly editors: WatchedEditors;
  open(ref: NotebookRef): Promise<{ session: NotebookSession; uri: string }>;
}

/** One VS Code window: its sessions, and its editors saved through the session as VS Code's are. */
function newWindow(client: PostHogClient, mode: 'stream' | 'poll'): Window {
  const editors = new WatchedEditors();
  const sessions = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive: new MemoryBaseStore(), log: new MemoryLog() });
  sessions.setLiveMode(mode);
  sessions.setPollInterval(POLL_SECONDS);
  editors.savesUnchanged = true;
  return {
    sessions,
    editors,
    async open(ref) {
      const session = sessions.get(ref) ?? (await sessions.fetch(ref));
      const uri = `posthog://bench/${ref.projectId}/notebooks/${ref.shortId}.md`;
      editors.documents.set(uri, { text: new TextDecoder().decode(session.read(uri, 'markdown')), dirty: false });
      editors.onSave = async (saved, text) => ['saved', 'unchanged'].includes((await session.write(saved, 'markdown', text, { overwrite: false })).kind);
      session.editorOpened(uri);
      return { session, uri };
    },
  };
}

async function streamsOpen(api: BenchApi, shortIds: readonly string[]): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { requests } = await api.traffic();
    if (shortIds.every((shortId) => requests.some((request) => request.path.endsWith(`/notebooks/${shortId}/collab/stream/`)))) return;
    await wait(25);
  }
  throw new Error('The stream did not open');
}

export async function benchLiveNotebook(api: BenchApi, latencyMs: number, idleMinutes: number): Promise<Figure[]> {
  const projectId = await api.call<number>({ op: 'projectWithNotebooks', name: 'Bench live notebooks', notebooks: 0 });
  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.key });
  const figures: Figure[] = [];
  try {
    figures.push(...(await remoteChangeLatency(api, client, projectId, latencyMs)));
    figures.push(...(await bigMerge(api, client, projectId)));
    figures.push(...(await idleRequests(api, client, projectId, idleMinutes)));
  } finally {
    await client.dispose();
  }
  return figures;
}

/** Another client's save, then the time until an open clean editor shows it: 100 edits, one at a time. */
async function remoteChangeLatency(api: BenchApi, client: PostHogClient, projectId: number, latencyMs: number): Promise<Figure[]> {
  const section = `Live notebooks: another client's change reaching an open editor (${latencyMs} ms per request)`;
  const shortId = await api.call<string>({ op: 'markdownNotebook', projectId, markdown: paragraphs(PARAGRAPHS) });
  const window = newWindow(client, 'stream');
  const ref = { connectionId: 'bench', projectId, shortId };
  const { uri } = await window.open(ref);
  await api.reset();
  await streamsOpen(api, [shortId]);
  const times: number[] = [];
  let current = window.editors.textOf(uri)!;
  try {
    for (let edit = 1; edit <= EDITS; edit++) {
      const paragraph = ((edit - 1) % PARAGRAPHS) + 1;
      const find = current.match(new RegExp(`Paragraph ${paragraph}: [^\\n]*`))![0];
      const marker = `edit ${edit} `;
      const shown = window.editors.until((text) => text.includes(marker));
      const started = performance.now();
      await api.call({ op: 'webEdit', projectId, shortId, edit: { replace: { find, with: `${find.slice(0, find.indexOf(':') + 2)}${marker}${find.slice(find.indexOf(':') + 2)}` }, by: { first_name: 'Bench' } } });
      await shown;
      times.push(performance.now() - started);
      current = window.editors.textOf(uri)!;
      await wait(20);
    }
  } finally {
    window.sessions.dispose();
  }
  const traffic = await api.traffic();
  const fetched = traffic.requests.filter((request) => request.path.endsWith(`/notebooks/${shortId}/`)).length;
  const p50 = percentile(times, 0.5);
  const p95 = percentile(times, 0.95);
  const pollP50 = (POLL_SECONDS * 1000) / 2 + latencyMs;
  const pollP95 = POLL_SECONDS * 1000 * 0.95 + latencyMs;
  return [
    { section, what: `stream: time to the editor, p50 of ${EDITS} edits`, value: p50, unit: 'ms', budget: '< 1,000 ms', pass: p50 < 1000, vsNaive: p50 / pollP50 },
    { section, what: `stream: time to the editor, p95 of ${EDITS} edits`, value: p95, unit: 'ms', budget: '< 1,000 ms', pass: p95 < 1000, vsNaive: p95 / pollP95 },
    { section, what: `stream: notebook GETs for the ${EDITS} edits (each applied from its diff)`, value: fetched, unit: 'requests', budget: '0', pass: fetched === 0 },
    {
      section,
      what: `polling every ${POLL_SECONDS} s (before): p50 / p95, from the interval (a save lands at a uniform moment of it, plus a round trip)`,
      value: pollP50,
      unit: 'ms',
      note: `p95 ${Math.round(pollP95)} ms`,
    },
  ];
}

/** A 2 MB Markdown notebook with unsaved edits at its top; another client edits its end: merged into the editor. */
async function bigMerge(api: BenchApi, client: PostHogClient, projectId: number): Promise<Figure[]> {
  const words = 40;
  const count = Math.ceil(BIG_BYTES / paragraphs(1, words).length);
  const markdown = paragraphs(count, words);
  const section = `Live notebooks: another client's change merged into a ${(markdown.length / 1024 / 1024).toFixed(1)} MB notebook with unsaved edits`;
  const shortId = await api.call<string>({ op: 'markdownNotebook', projectId, markdown });
  const window = newWindow(client, 'stream');
  const { session, uri } = await window.open({ connectionId: 'bench', projectId, shortId });
  await streamsOpen(api, [shortId]);
  const walls: number[] = [];
  const cpus: number[] = [];
  const alone: number[] = [];
  try {
    for (let round = 1; round <= MERGE_ROUNDS; round++) {
      const text = window.editors.textOf(uri)!;
      const ours = text.replace(/Paragraph 1( \(mine \d+\))?: /, `Paragraph 1 (mine ${round}): `);
      window.editors.type(uri, ours);
      session.editorChanged(uri);
      const last = `Paragraph ${count}: `;
      const marker = `(theirs ${round}) `;
      const merged = window.editors.until((shown) => shown.includes(marker) && shown.includes(`(mine ${round})`));
      const cpu = process.cpuUsage();
      const started = performance.now();
      await api.call({ op: 'webEdit', projectId, shortId, edit: { replace: { find: last, with: `${last}${marker}` }, by: { first_name: 'Bench' } } });
      await merged;
      walls.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
      const theirs = text.replace(last, `${last}${marker}`);
      const mergeStarted = performance.now();
      const plan = planRemoteMerge(text, ours, theirs);
      if (plan.kind !== 'merged') throw new Error(`The big merge ended ${plan.kind}`);
      textEdits(ours, plan.text);
      alone.push(performance.now() - mergeStarted);
      window.editors.documents.set(uri, { text: window.editors.textOf(uri)!, dirty: true });
    }
  } finally {
    window.sessions.dispose();
  }
  const wall = median(walls);
  return [
    { section, what: 'from their save to both edits in the editor (diff applied, CRC checked, three-way merge, smallest edits)', value: wall, unit: 'ms', budget: '< 1,000 ms', pass: wall < 1000 },
    { section, what: 'extension CPU time meanwhile (this process)', value: median(cpus), unit: 'ms' },
    { section, what: 'of which the merge and the edits alone (planRemoteMerge + textEdits)', value: median(alone), unit: 'ms' },
  ];
}

/** One open, idle notebook per way of following it, for `minutes`: the requests each made. */
async function idleRequests(api: BenchApi, client: PostHogClient, projectId: number, minutes: number): Promise<Figure[]> {
  const section = `Live notebooks: an open notebook nobody edits, ${minutes} min`;
  const streamed = await api.call<string>({ op: 'markdownNotebook', projectId, markdown: paragraphs(3) });
  const polled = await api.call<string>({ op: 'markdownNotebook', projectId, markdown: paragraphs(3) });
  const streaming = newWindow(client, 'stream');
  const polling = newWindow(client, 'poll');
  await api.reset();
  await streaming.open({ connectionId: 'bench', projectId, shortId: streamed });
  await polling.open({ connectionId: 'bench', projectId, shortId: polled });
  await streamsOpen(api, [streamed]);
  await api.reset(); // from here on: what following costs, the open (one GET each) and the stream's opening left out
  await wait(minutes * 60_000);
  const { requests } = await api.traffic();
  streaming.sessions.dispose();
  polling.sessions.dispose();
  const count = (shortId: string) => requests.filter((request) => request.path.includes(`/notebooks/${shortId}/`));
  const streamRequests = count(streamed);
  const pollRequests = count(polled);
  const perMinute = (list: readonly unknown[]) => list.length / minutes;
  return [
    {
      section,
      what: 'followed by the stream (open all along, reopened when PostHog closes it after 5 min): requests a minute',
      value: perMinute(streamRequests),
      unit: 'requests/min',
      budget: '< polling',
      pass: perMinute(streamRequests) < perMinute(pollRequests),
      note: `${streamRequests.length} in ${minutes} min: ${streamRequests.map((request) => `${request.method} ${request.path.replace(/.*\/notebooks\/[^/]+\//, '') || 'notebook'} ${request.status}`).join(', ')}`,
    },
    {
      section,
      what: `polled every ${POLL_SECONDS} s (before, and servers without the stream): requests a minute`,
      value: perMinute(pollRequests),
      unit: 'requests/min',
      note: `${pollRequests.length} in ${minutes} min (conditional GETs: ${pollRequests.filter((request) => request.status === 304).length} answered 304)`,
    },
  ];
}
