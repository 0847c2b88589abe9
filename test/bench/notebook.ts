// 2. Opening and saving a 2 MB notebook, as its JSON document and as Markdown, and merging a save that meets
// another user's: requests, and the time spent in the extension beyond the network.
// Replays what the posthog: file system does (src/notebooks/files/notebookFiles.ts, which needs vscode):
// - JSON: open = GET + serialise + ServedJsonVersions.recordServed; save = ServedJsonVersions.planSave (parse,
//   validate, diff) + PATCH + recordWritten + serialise of the answer;
// - Markdown: open = GET + convert to Markdown; save = planMarkdownSave (convert back, unchanged blocks
//   keeping their nodes) + PATCH + the answer's Markdown;
// - merge: a save based on an older version: PATCH (409) + GET + three-way merge + PATCH.
// The API runs in another process, so this process's CPU time during a call is the extension's own work.
import { type Notebook, PostHogClient } from '../../src/api';
import MarkdownIt from 'markdown-it';
import { posthogNotebookPlugin, readPostHogMarkdown, toPostHogMarkdown } from '../../src/notebooks/markdown';
import { mergeMarkdown, mergeNotebookJson } from '../../src/notebooks/merge';
import { markdownTextOf, planMarkdownSave, renderMarkdown, snapshotOf } from '../../src/notebooks/saving/markdownSavePlan';
import { editableOf, parseNotebookDocument, serializeNotebook } from '../../src/notebooks/model/notebookDocument';
import { ServedJsonVersions } from '../../src/notebooks/saving/jsonSavePlan';
import { mergeLabels, mergeMarkdownSave } from '../../src/notebooks/saving/saveMerge';
import type { BenchApi } from './benchApi';
import { type Figure, median } from './results';

const REPETITIONS = 3;
const NOTEBOOK_BYTES = 2 * 1024 * 1024;

interface Sample {
  wallMs: number;
  cpuMs: number;
  /** Document logic alone (serialise on open; parse + validate + diff on save). */
  logicMs: number;
  /** parseNotebookDocument alone (save only). */
  parseMs?: number;
  requests: string[];
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function timed(api: BenchApi, work: () => Promise<number>): Promise<Sample> {
  await api.reset();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const logicMs = await work();
  const wallMs = performance.now() - started;
  const cpuMs = cpuSince(cpu);
  const traffic = await api.traffic();
  return { wallMs, cpuMs, logicMs, requests: traffic.requests.map((request) => `${request.method} ${request.status}`) };
}

/** An edit a person makes: one word of the last paragraph's text. */
function editText(text: string, round: number): string {
  const at = text.lastIndexOf('notes taken while exploring the data.');
  if (at < 0) throw new Error('No paragraph to edit in the big notebook');
  return `${text.slice(0, at)}notes taken (edit ${round}) while exploring the data.${text.slice(at + 'notes taken while exploring the data.'.length)}`;
}

export async function benchNotebook(api: BenchApi, latencyMs: number): Promise<Figure[]> {
  const projectId = await api.call<number>({ op: 'projectWithNotebooks', name: 'Bench big notebook', notebooks: 0 });
  const { shortId, contentBytes } = await api.call<{ shortId: string; contentBytes: number }>({ op: 'bigNotebook', projectId, bytes: NOTEBOOK_BYTES });
  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.key });
  const opens: Sample[] = [];
  const saves: Sample[] = [];
  let fileBytes = 0;
  try {
    await client.users.me(); // an open connection, as in a session that already shows the tree
    for (let round = 1; round <= REPETITIONS; round++) {
      const history = new ServedJsonVersions(shortId);
      let text = '';
      opens.push(
        await timed(api, async () => {
          const notebook = await client.notebooks.get(projectId, shortId);
          const started = performance.now();
          const bytes = new TextEncoder().encode(serializeNotebook(notebook));
          history.recordServed(notebook);
          text = new TextDecoder().decode(bytes);
          fileBytes = bytes.byteLength;
          return performance.now() - started;
        }),
      );
      const edited = new TextEncoder().encode(editText(text, round));
      const parseStarted = performance.now();
      parseNotebookDocument(new TextDecoder().decode(edited));
      const parseMs = performance.now() - parseStarted;
      saves.push(
        await timed(api, async () => {
          const started = performance.now();
          const plan = history.planSave(new TextDecoder().decode(edited));
          if (plan.kind !== 'patch') throw new Error('The edit did not make a PATCH');
          const logicMs = performance.now() - started;
          const saved = await client.notebooks.update(projectId, shortId, plan.body);
          const after = performance.now();
          history.recordServed(saved);
          new TextEncoder().encode(serializeNotebook(saved));
          return logicMs + (performance.now() - after);
        }),
      );
      saves[saves.length - 1]!.parseMs = parseMs;
    }
  } finally {
    await client.dispose();
  }
  const section = `Open and save a ${(fileBytes / 1024 / 1024).toFixed(1)} MB notebook file (${(contentBytes / 1024 / 1024).toFixed(1)} MB of ProseMirror JSON, ${latencyMs} ms per request)`;
  const figures: Figure[] = [];
  for (const [name, samples, expected] of [['open', opens, 'GET 200'], ['save', saves, 'PATCH 200']] as const) {
    const counts = samples.map((sample) => sample.requests.length);
    const exact = samples.every((sample) => sample.requests.length === 1 && sample.requests[0] === expected);
    const wall = median(samples.map((sample) => sample.wallMs));
    figures.push(
      { section, what: `${name}: requests (${expected.split(' ')[0]})`, value: Math.max(...counts), unit: 'requests', budget: 'exactly 1', pass: exact, note: samples.map((sample) => sample.requests.join('+')).join(', ') },
      { section, what: `${name}: wall time`, value: wall, unit: 'ms', vsFloor: wall / latencyMs },
      { section, what: `${name}: beyond the network (wall − ${latencyMs} ms round trip)`, value: wall - latencyMs, unit: 'ms' },
      { section, what: `${name}: extension CPU time (this process)`, value: median(samples.map((sample) => sample.cpuMs)), unit: 'ms' },
      {
        section,
        what: name === 'open' ? 'open: of which serialise + history' : 'save: of which parse + validate + diff + serialise',
        value: median(samples.map((sample) => sample.logicMs)),
        unit: 'ms',
      },
    );
  }
  figures.push({ section, what: 'save: of which parseNotebookDocument (JSON with locations), measured alone', value: median(saves.map((sample) => sample.parseMs ?? NaN)), unit: 'ms' });
  figures.push(...(await benchMarkdown(api, latencyMs, projectId)));
  return figures;
}

/** ProseMirror JSON per byte of the Markdown it converts to, in the bench's notebooks (about 2.5). */
const JSON_PER_MARKDOWN_BYTE = 2.6;

/** A legacy notebook whose Markdown is 2 MB: open, save, and a save that meets another user's edit and merges. */
async function benchMarkdown(api: BenchApi, latencyMs: number, projectId: number): Promise<Figure[]> {
  const { shortId, contentBytes } = await api.call<{ shortId: string; contentBytes: number }>({
    op: 'bigNotebook',
    projectId,
    bytes: Math.round(NOTEBOOK_BYTES * JSON_PER_MARKDOWN_BYTE),
  });
  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.key });
  const opens: Sample[] = [];
  const saves: Sample[] = [];
  const merges: Sample[] = [];
  const mergeTimes: number[] = [];
  const jsonMergeTimes: number[] = [];
  const lossChecks: number[] = [];
  const posthogReads: number[] = [];
  const posthogWrites: number[] = [];
  const previews: number[] = [];
  const preview = new MarkdownIt({ html: true }).use(posthogNotebookPlugin, { isNotebookText: () => true });
  let posthogBytes = 0;
  let fileBytes = 0;
  try {
    await client.users.me();
    for (let round = 1; round <= REPETITIONS; round++) {
      let served: Notebook | undefined;
      let text = '';
      opens.push(
        await timed(api, async () => {
          served = await client.notebooks.get(projectId, shortId);
          const started = performance.now();
          text = markdownTextOf(served.content);
          fileBytes = new TextEncoder().encode(text).byteLength;
          return performance.now() - started;
        }),
      );
      const lossesStarted = performance.now();
      renderMarkdown(served!.content);
      lossChecks.push(performance.now() - lossesStarted);
      // PostHog's dialect on its own: its reader on the file's text, and its migration's writer (corrected) on the notebook.
      const readStarted = performance.now();
      readPostHogMarkdown(text);
      posthogReads.push(performance.now() - readStarted);
      const writeStarted = performance.now();
      posthogBytes = new TextEncoder().encode(toPostHogMarkdown(served!.content).markdown).byteLength;
      posthogWrites.push(performance.now() - writeStarted);
      const previewStarted = performance.now();
      preview.render(text);
      previews.push(performance.now() - previewStarted);
      const base = snapshotOf(served!, text, 0);
      const edited = editText(text, round);
      let saved: Notebook | undefined;
      saves.push(
        await timed(api, async () => {
          const started = performance.now();
          const plan = planMarkdownSave(edited, base);
          if (plan.kind !== 'patch') throw new Error('The Markdown edit did not make a PATCH');
          const logicMs = performance.now() - started;
          // The file store then serves the saved text itself (PostHog holds exactly it): no conversion of the answer.
          saved = await client.notebooks.update(projectId, shortId, plan.body);
          return logicMs;
        }),
      );
      // Someone else edits the first paragraph; this editor, still based on `saved`, edits the last one.
      const savedText = markdownTextOf(saved!.content);
      const theirs = savedText.replace('notes taken', 'notes (theirs) taken');
      await client.notebooks.update(projectId, shortId, { ...planBody(theirs, saved!, savedText), version: saved!.version });
      const ours = editText(savedText.replace(`(edit ${round})`, ''), round + 100);
      merges.push(
        await timed(api, async () => {
          const started = performance.now();
          const plan = planMarkdownSave(ours, snapshotOf(saved!, savedText, 0));
          if (plan.kind !== 'patch') throw new Error('The merge round did not make a PATCH');
          let logicMs = performance.now() - started;
          await client.notebooks.update(projectId, shortId, plan.body).then(
            () => {
              throw new Error('A stale save was accepted');
            },
            () => undefined,
          );
          const server = await client.notebooks.get(projectId, shortId);
          const mergeStarted = performance.now();
          const outcome = mergeMarkdownSave(snapshotOf(saved!, savedText, 0), ours, server, mergeLabels(server, null));
          if (outcome.kind !== 'merged') throw new Error(`The merge round ended ${outcome.kind}`);
          logicMs += performance.now() - mergeStarted;
          await client.notebooks.update(projectId, shortId, { content: outcome.full.content, text_content: outcome.full.text_content, version: server.version });
          return logicMs;
        }),
      );
      const labels = { ours: 'Yours', theirs: 'PostHog' };
      const mergeStarted = performance.now();
      mergeMarkdown(savedText, ours, theirs, labels);
      mergeTimes.push(performance.now() - mergeStarted);
      const jsonBase = editableOf(saved!);
      const jsonOurs = { ...jsonBase, content: planBody(ours, saved!, savedText).content };
      const jsonTheirs = { ...jsonBase, content: planBody(theirs, saved!, savedText).content };
      const jsonStarted = performance.now();
      mergeNotebookJson(jsonBase, jsonOurs, jsonTheirs, labels);
      jsonMergeTimes.push(performance.now() - jsonStarted);
    }
  } finally {
    await client.dispose();
  }
  const section = `Open and save a ${(fileBytes / 1024 / 1024).toFixed(1)} MB Markdown file (a legacy notebook of ${(contentBytes / 1024 / 1024).toFixed(1)} MB of ProseMirror JSON, converted both ways, ${latencyMs} ms per request)`;
  const figures: Figure[] = [];
  for (const [name, samples, expected] of [['open', opens, ['GET 200']], ['save', saves, ['PATCH 200']], ['merged save', merges, ['PATCH 409', 'GET 200', 'PATCH 200']]] as const) {
    const exact = samples.every((sample) => sample.requests.join('+') === expected.join('+'));
    const wall = median(samples.map((sample) => sample.wallMs));
    figures.push(
      { section, what: `${name}: requests (${expected.join(', ')})`, value: Math.max(...samples.map((sample) => sample.requests.length)), unit: 'requests', budget: `exactly ${expected.length}`, pass: exact, note: samples.map((sample) => sample.requests.join('+')).join(', ') },
      { section, what: `${name}: wall time`, value: wall, unit: 'ms', vsFloor: wall / (latencyMs * expected.length) },
      { section, what: `${name}: extension CPU time (this process)`, value: median(samples.map((sample) => sample.cpuMs)), unit: 'ms' },
      {
        section,
        what: name === 'open' ? 'open: of which Markdown conversion (the text)' : name === 'save' ? 'save: of which conversion back' : 'merged save: of which conversions + three-way merge',
        value: median(samples.map((sample) => sample.logicMs)),
        unit: 'ms',
      },
    );
  }
  figures.push(
    { section, what: 'after open: the check of what Markdown cannot hold (writes and reads the text back), for diagnostics', value: median(lossChecks), unit: 'ms' },
    { section, what: `readPostHogMarkdown (PostHog's reader) on the ${(fileBytes / 1024 / 1024).toFixed(1)} MB Markdown`, value: median(posthogReads), unit: 'ms', budget: '< 1,000 ms', pass: median(posthogReads) < 1_000 },
    {
      section,
      what: `toPostHogMarkdown (PostHog's migration, corrected, losses named) of the notebook, ${(posthogBytes / 1024 / 1024).toFixed(1)} MB of Markdown`,
      value: median(posthogWrites),
      unit: 'ms',
      budget: '< 1,000 ms',
      pass: median(posthogWrites) < 1_000,
    },
    { section, what: `the Markdown preview's HTML of the ${(fileBytes / 1024 / 1024).toFixed(1)} MB Markdown (PostHog's reading, through markdown-it)`, value: median(previews), unit: 'ms', budget: '< 1,500 ms', pass: median(previews) < 1_500 },
    { section, what: `three-way merge of the ${(fileBytes / 1024 / 1024).toFixed(1)} MB Markdown alone (edits on both sides)`, value: median(mergeTimes), unit: 'ms', budget: '< 1,000 ms', pass: median(mergeTimes) < 1_000 },
    { section, what: 'three-way merge of the same notebook as JSON nodes', value: median(jsonMergeTimes), unit: 'ms', budget: '< 1,000 ms', pass: median(jsonMergeTimes) < 1_000 },
  );
  return figures;
}

/** The PATCH fields that make `markdown` the notebook's content, based on `served`. */
function planBody(markdown: string, served: Notebook, servedText: string): { content: unknown; text_content?: string | null } {
  const plan = planMarkdownSave(markdown, snapshotOf(served, servedText, 0));
  if (plan.kind !== 'patch') throw new Error('The edit changed nothing');
  return plan.body;
}
