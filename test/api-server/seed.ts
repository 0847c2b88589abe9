// Deterministic seed data. Times are fixed offsets from the clock's "now"; ids, tokens and keys come
// from a PRNG seeded by the seed name, so every run of a seed looks the same.
import type { JsonObject, Notebook, Project, User } from './model';
import { Store } from './store';
import { Rng } from './random';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from './time';
import { sampleMarkdownNotebooks, sampleNotebooks } from './notebook-samples';
import { textContentOf } from './content';

export type SeedName = 'demo' | 'minimal' | 'empty';

export interface SeededKeys {
  all: string;
  readOnly: string;
  notebooksOnly: string;
  /** Every scope, but limited (scoped_teams) to the main project: the @me user's current project. */
  oneProject: string;
}

const READ_SCOPES = ['organization:read', 'project:read', 'notebook:read', 'activity_log:read', 'query:read', 'user:read', 'property_definition:read'];

export function seedStore(seed: SeedName, clock: () => Date, demoEvents = 100_000): { store: Store; keys: SeededKeys } {
  const store = new Store(clock, seed);
  const users = addUsers(store);
  const rng = new Rng(`posthog-local-api:keys:${seed}`);
  const keys = addKeys(store, rng);
  if (seed === 'empty') {
    store.addOrganization('Empty Org', [{ userId: users[0]!.id, level: 15 }]);
  } else if (seed === 'minimal') {
    seedMinimal(store, users);
  } else {
    seedDemo(store, users, demoEvents);
  }
  return { store, keys: { ...keys, oneProject: addOneProjectKey(store, rng) } };
}

function addUsers(store: Store): User[] {
  return [
    store.addUser('Sam', 'Rivera', 'sam@hedgebox.net'),
    store.addUser('Lee', 'Chen', 'lee@hedgebox.net', { role_at_organization: 'product' }),
    store.addUser('Priya', 'Patel', 'priya@hedgebox.net', { hedgehog_config: null, role_at_organization: 'data' }),
    store.addUser('Marcus', 'Webb', 'marcus@hedgebox.net', { is_email_verified: false, role_at_organization: null }),
  ];
}

function addKeys(store: Store, rng: Rng): Omit<SeededKeys, 'oneProject'> {
  const userId = store.mainUser.id;
  return {
    all: store.addKey({ value: `phx_${rng.base62(43)}`, label: 'Local API (all access)', userId, scopes: ['*'] }),
    readOnly: store.addKey({ value: `phx_${rng.base62(43)}`, label: 'Local API (read only)', userId, scopes: READ_SCOPES }),
    notebooksOnly: store.addKey({ value: `phx_${rng.base62(43)}`, label: 'Local API (notebooks)', userId, scopes: ['notebook:write'] }),
  };
}

/**
 * Made after the data, to know the project: the main user's current one. The empty seed has no project,
 * so there the key is limited to a project id that does not exist, and every project endpoint refuses it.
 */
function addOneProjectKey(store: Store, rng: Rng): string {
  const projectId = store.currentProjectOf(store.mainUser.id)?.id ?? 0;
  return store.addKey({ value: `phx_${rng.base62(43)}`, label: 'Local API (one project)', userId: store.mainUser.id, scopes: ['*'], projects: [projectId] });
}

function seedMinimal(store: Store, users: User[]): void {
  const [sam, lee, priya, marcus] = users as [User, User, User, User];
  const hedgebox = store.addOrganization('Hedgebox Inc.', [{ userId: sam.id, level: 15 }, { userId: lee.id, level: 8 }, { userId: priya.id, level: 1 }, { userId: marcus.id, level: 1 }]);
  const acme = store.addOrganization('Acme Analytics', [{ userId: sam.id, level: 8 }], 120);
  const main = project(store, hedgebox.id, 'Hedgebox', 200, { timezone: 'Europe/London', week_start_day: 1, completed_snippet_onboarding: true, app_urls: ['https://hedgebox.net'] });
  main.siteHost = 'hedgebox.net';
  project(store, hedgebox.id, 'Hedgebox Staging', 150);
  project(store, hedgebox.id, 'Marketing site', 90, { is_demo: false, anonymize_ips: true });
  project(store, acme.id, 'Acme Web', 110, { timezone: 'America/New_York', week_start_day: 0 });
  seedNotebooks(store, main, users, 5, true);
  store.addEvents(main.id, 500);
  store.setCurrentProject(sam.id, main.id);
  seedMarkdownNotebooks(store, main, users, 2);
}

function seedDemo(store: Store, users: User[], demoEvents: number): void {
  const [sam, lee, priya, marcus] = users as [User, User, User, User];
  const hedgebox = store.addOrganization('Hedgebox Inc.', [{ userId: sam.id, level: 15 }, { userId: lee.id, level: 8 }, { userId: priya.id, level: 1 }, { userId: marcus.id, level: 1 }]);
  const acme = store.addOrganization('Acme Analytics', [{ userId: sam.id, level: 8 }, { userId: lee.id, level: 15 }], 220);
  const nimbus = store.addOrganization('Nimbus Labs', [{ userId: sam.id, level: 1 }, { userId: priya.id, level: 15 }], 60);
  const plan: [string, string, number, number, number, JsonObject][] = [
    [hedgebox.id, 'Hedgebox', 280, demoEvents, 14, { timezone: 'Europe/London', week_start_day: 1, completed_snippet_onboarding: true, app_urls: ['https://hedgebox.net', 'https://app.hedgebox.net'], session_recording_opt_in: true }],
    [hedgebox.id, 'Hedgebox Staging', 200, 800, 7, { test_account_filters_default_checked: true }],
    [hedgebox.id, 'Hedgebox Mobile', 150, 2_000, 7, { timezone: 'America/Los_Angeles', week_start_day: 0 }],
    [hedgebox.id, 'Marketing site', 90, 1_500, 7, { anonymize_ips: true, heatmaps_opt_in: true }],
    [acme.id, 'Acme Web', 210, 1_500, 7, { timezone: 'America/New_York', week_start_day: 0, completed_snippet_onboarding: true }],
    [acme.id, 'Acme API', 100, 500, 7, {}],
    [nimbus.id, 'Nimbus App', 55, 1_000, 7, { timezone: 'Asia/Tokyo', week_start_day: 1 }],
    [nimbus.id, 'Nimbus Docs', 40, 300, 7, {}],
    [nimbus.id, 'Nimbus Internal', 20, 0, 7, { is_demo: true }],
  ];
  const notebookCounts = [12, 3, 4, 2, 3, 1, 3, 1, 0];
  const markdownCounts = [4, 0, 1, 0, 1, 0, 0, 0, 0];
  plan.forEach(([orgId, name, daysAgo, events, days, settings], i) => {
    const p = project(store, orgId, name, daysAgo, settings);
    if (i === 0) p.siteHost = 'hedgebox.net';
    seedNotebooks(store, p, users, notebookCounts[i]!, i === 0);
    seedMarkdownNotebooks(store, p, users, markdownCounts[i]!);
    if (events > 0) {
      const table = store.eventsOf(p.id);
      table.addPersons(Math.max(20, Math.round(events / 40)), store.rng, store.now().getTime() * 1000 - days * MICROS_PER_DAY);
      store.addEvents(p.id, events, { withinHours: days * 24 });
    }
  });
  store.setCurrentProject(sam.id, store.projectsOf(hedgebox.id)[0]!.id);
}

function project(store: Store, orgId: string, name: string, daysAgo: number, settings: JsonObject = {}): Project {
  const created = store.now().getTime() * 1000 - daysAgo * MICROS_PER_DAY;
  const p = store.createProject(orgId, { name, ...settings }, store.mainUser.id, created);
  p.updated_at = created + 3 * MICROS_PER_HOUR;
  return p;
}

/** Notebooks with history: created by different people, edited a few times; optionally the last one deleted. */
function seedNotebooks(store: Store, project: Project, users: User[], count: number, deleteLast: boolean): Notebook[] {
  const samples = sampleNotebooks(store.rng);
  const now = store.now().getTime() * 1000;
  const made: Notebook[] = [];
  for (let i = 0; i < count; i++) {
    const sample = samples[i % samples.length]!;
    const title = i < samples.length ? sample.title : `${sample.title} (${Math.floor(i / samples.length) + 1})`;
    const content = i < samples.length ? sample.content : retitle(sample.content, title);
    const author = users[i % users.length]!;
    const created = now - (40 - i) * MICROS_PER_DAY - i * 3_600_000_000;
    const notebook = store.createNotebook(project.id, { title, content, text_content: textContentOf(content) }, author.id, created);
    const edits = (i * 7 + 3) % 5;
    for (let e = 1; e <= edits; e++) {
      const editor = users[(i + e) % users.length]!;
      const at = created + e * Math.floor(((now - created) / (edits + 1)) * 0.9);
      notebook.version = e;
      notebook.last_modified_at = at;
      notebook.lastModifiedById = editor.id;
      store.logActivity(project, editor.id, 'Notebook', notebook.short_id, 'updated', { name: title, short_id: notebook.short_id, changes: [{ type: 'Notebook', action: 'changed', field: 'content', before: null, after: null }] }, at);
    }
    made.push(notebook);
  }
  if (deleteLast && made.length > 0) {
    const last = made[made.length - 1]!;
    last.deleted = true;
    last.last_modified_at = now - 2 * MICROS_PER_DAY;
    store.logActivity(project, store.mainUser.id, 'Notebook', last.short_id, 'deleted', { name: last.title, short_id: last.short_id, changes: [{ type: 'Notebook', action: 'changed', field: 'deleted', before: false, after: true }] }, last.last_modified_at);
  }
  return made;
}

/** Markdown notebooks, the form PostHog is migrating notebooks to: text_content is the Markdown. */
function seedMarkdownNotebooks(store: Store, project: Project, users: User[], count: number): void {
  const now = store.now().getTime() * 1000;
  sampleMarkdownNotebooks().slice(0, count).forEach(({ title, content }, i) => {
    const author = users[(i + 1) % users.length]!;
    const created = now - (6 - i) * MICROS_PER_DAY;
    const notebook = store.createNotebook(project.id, { title, content, text_content: textContentOf(content) }, author.id, created);
    notebook.version = i + 2;
    notebook.last_modified_at = created + (i + 1) * 5 * MICROS_PER_HOUR;
    notebook.lastModifiedById = store.mainUser.id;
  });
}

function retitle(content: unknown, title: string): JsonObject {
  const copy = JSON.parse(JSON.stringify(content)) as JsonObject;
  const nodes = copy['content'] as JsonObject[];
  nodes[0] = { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] };
  return copy;
}
