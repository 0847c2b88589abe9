// 2. Opening and saving a 2 MB notebook: requests, and the time spent in the extension beyond the network.
// Replays what the posthog: file system does (src/notebooks/notebookFiles.ts, which needs vscode): open =
// GET + serialise + NotebookHistory.recordServed; save = NotebookHistory.planSave (parse, validate, diff) +
// PATCH + recordWritten + serialise of the answer. The API runs in another process, so this process's CPU
// time during a call is the extension's own work (JSON parse, schema checks, document logic, sockets).
import { PostHogClient } from '../../src/api';
import { parseNotebookDocument, serializeNotebook } from '../../src/notebooks/notebookDocument';
import { NotebookHistory } from '../../src/notebooks/notebookHistory';
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
      const history = new NotebookHistory(shortId);
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
          history.recordWritten(plan.displayed, saved);
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
  return figures;
}
