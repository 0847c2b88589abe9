// `npm run api -- --port 8010 [--host 127.0.0.1] [--seed demo|minimal|empty] [--latency ms]
//   [--allow-personal-key-actions] [--rate-limits] [--events N] [--live-events N] [--live-notebook] [--event-list-level 0|1|2]
//   [--no-query-api] [--query-run-ms ms] [--project-deletion scheduled|at-once|legacy] [--control] [--tls [--http-next-links]]`
// Serves the local PostHog-compatible API until SIGINT/SIGTERM.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startLocalApi, throwawayCertificate, type StartOptions } from './index';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const SEEDS = new Set(['demo', 'minimal', 'empty']);

const USAGE = `Usage: npm run api -- [--port N] [--host 127.0.0.1|::1|localhost] [--seed demo|minimal|empty]
                     [--latency ms] [--allow-personal-key-actions] [--rate-limits] [--events N] [--live-events N]
                     [--live-notebook] [--event-list-level 0|1|2] [--no-query-api] [--query-run-ms ms]
                     [--project-deletion scheduled|at-once|legacy]
                     [--control] [--tls [--http-next-links]]
  --live-events N    N new events a second keep arriving in every project that has events (the events panel's Live)
  --live-notebook    a demo collaborator types into the notebook "Live notes (demo collaborator)" of the first
                     project through the collaboration endpoints, as a web app user would
  --event-list-level PostHog's PATCH_EVENT_LIST_MAX_OFFSET: 0 off (self-hosted default), 1 migration, 2 enabled (default)
  --no-query-api     an older server: /api/projects/:id/query/ answers 404 (clients fall back to the events list)
  --query-run-ms     an async query run takes this long before it completes (default 0)
  --project-deletion how DELETE deletes a project without events: scheduled (1 hour later, default), at-once, or
                     legacy (an older PostHog: every project at once, no schedule, no cancel-deletion); a project
                     with events is always scheduled 48 hours later (except legacy)
  --tls              serve over https with a throwaway self-signed certificate (needs the openssl CLI)
  --http-next-links  with --tls: build next/previous links with http://, as self-hosted PostHog does
                     when not configured as behind a proxy`;

/** The command line's choices; `tls` asks for a throwaway certificate, made when the server starts. */
export type CliOptions = Omit<StartOptions, 'tls'> & { tls?: boolean };

export function parseArgs(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8010, seed: 'demo' };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  const integer = (text: string, flag: string): number => {
    if (!/^\d+$/.test(text)) throw new Error(`${flag} must be a non-negative integer, got "${text}"`);
    return Number(text);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    switch (flag) {
      case '--port': options.port = integer(value(i++, flag), flag); break;
      case '--host': {
        const host = value(i++, flag);
        if (!LOOPBACK.has(host)) throw new Error(`--host must be a loopback address (127.0.0.1, ::1 or localhost), got "${host}"`);
        options.host = host === 'localhost' ? '127.0.0.1' : host;
        break;
      }
      case '--seed': {
        const seed = value(i++, flag);
        if (!SEEDS.has(seed)) throw new Error(`--seed must be demo, minimal or empty, got "${seed}"`);
        options.seed = seed as StartOptions['seed'];
        break;
      }
      case '--latency': options.latencyMs = integer(value(i++, flag), flag); break;
      case '--events': options.demoEvents = integer(value(i++, flag), flag); break;
      case '--live-events': options.liveEventsPerSecond = integer(value(i++, flag), flag); break;
      case '--live-notebook': options.liveNotebook = true; break;
      case '--allow-personal-key-actions': options.refusePersonalKeyActions = false; break;
      case '--rate-limits': options.rateLimits = true; break;
      case '--event-list-level': {
        const level = integer(value(i++, flag), flag);
        if (level > 2) throw new Error(`--event-list-level must be 0, 1 or 2, got ${level}`);
        options.eventListLevel = level as 0 | 1 | 2;
        break;
      }
      case '--no-query-api': options.queryApi = false; break;
      case '--query-run-ms': options.queryRunMs = integer(value(i++, flag), flag); break;
      case '--project-deletion': {
        const mode = value(i++, flag);
        if (mode !== 'scheduled' && mode !== 'at-once' && mode !== 'legacy') throw new Error(`--project-deletion must be scheduled, at-once or legacy, got "${mode}"`);
        options.projectDeletion = mode;
        break;
      }
      case '--control': options.control = true; break;
      case '--tls': options.tls = true; break;
      case '--http-next-links': options.httpNextLinks = true; break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: throw new Error(`Unknown option "${flag}"`);
    }
  }
  if (options.httpNextLinks && !options.tls) throw new Error('--http-next-links needs --tls (over http the links are http anyway)');
  return options;
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const tls = options.tls ? throwawayCertificate() : undefined;
  const api = await startLocalApi({ ...options, tls });
  const projects = api.store.visibleProjects();
  const events = projects.reduce((sum, p) => sum + api.store.eventsOf(p.id).size, 0);
  console.log(`PostHog local API listening on ${api.url}`);
  console.log(`Seed: ${options.seed} (${api.store.organizations.length} organizations, ${projects.length} projects, ${events} events)`);
  console.log('Personal API keys:');
  console.log(`  all access (*)   ${api.keys.all}`);
  console.log(`  read only        ${api.keys.readOnly}`);
  console.log(`  notebooks only   ${api.keys.notebooksOnly}`);
  console.log(`  one project (*)  ${api.keys.oneProject}   (limited to project ${api.store.currentProjectOf(api.store.mainUser.id)?.id ?? 'none'})`);
  console.log(`Try: curl -H "Authorization: Bearer ${api.keys.all}" ${api.url}/api/organizations/`);
  if (options.liveEventsPerSecond) console.log(`Live events: ${options.liveEventsPerSecond} a second in every project with events`);
  if (api.demoNotebook) console.log(`Live notebook: "${api.demoNotebook.title}" (${api.demoNotebook.shortId}) in project ${api.demoNotebook.projectId}, typed into by a demo collaborator`);
  if (options.control) console.log(`Test control surface: ${api.url}/_control/state`);
  let certDir: string | undefined;
  if (tls) {
    certDir = mkdtempSync(path.join(tmpdir(), 'posthog-local-api-'));
    const certFile = path.join(certDir, 'cert.pem');
    writeFileSync(certFile, tls.cert);
    console.log(`TLS certificate (self-signed; trust it with curl --cacert): ${certFile}`);
    if (options.httpNextLinks) console.log('next/previous links use http:// (self-hosted PostHog not configured as behind a proxy)');
  }
  const stop = (signal: string): void => {
    if (certDir) rmSync(certDir, { recursive: true, force: true });
    console.log(`\nReceived ${signal}, shutting down.`);
    void api.close().then(() => process.exit(0));
  };
  // Before the last line of the banner, which tells a waiting script that the server is ready to be stopped too.
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  console.log('Press Ctrl+C to stop.');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
