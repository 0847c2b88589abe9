/**
 * The local API's in-memory data. Tests may read and change it directly.
 *
 * Clock and ids
 *   store.now(): Date                       the server clock (StartOptions.now)
 *   store.nowMicros(): number               strictly increasing microsecond timestamps for edits
 *   store.rng                               the seeded PRNG (deterministic per seed)
 *   store.settings.maxProjectsPerOrganization  plan limit; null = unlimited up to PostHog's 2000 (past it: 403)
 *   store.settings.projectDeletionDisabled     PostHog's DISABLE_BULK_DELETES: every project DELETE answers 400
 *   store.settings.projectDeletion             how DELETE deletes a project without events: 'scheduled' (1 hour later, as at
 *                                           PostHog 3baaad06; default), 'at-once' (another version: now), 'legacy' (an older
 *                                           server: every project gone at once, no deletion_scheduled_at, no cancel-deletion)
 *   store.settings.cancelDeletionRefusal       the next cancel-deletion's refusal when the state changed under it ('race')
 *                                           or Temporal refused it ('temporal'); null (default) for neither
 *   store.settings.activityIgnoresLimit        an activity page holds every entry, whatever limit was asked
 *   store.settings.markdownOutOfResponses      notebook responses leave a Markdown notebook's Markdown out (GET .../markdown/ has it)
 *   store.settings.queryApi                    false: /query/ answers 404 (an older server; clients fall back to the events list)
 *   store.settings.propertyDefinitionsApi      false: property_definitions answers 404 (an older server, or a proxy without it)
 *   store.settings.queryRunMs                  how long an async query run takes (ms; default 0)
 *   store.queries                              the Query API's result cache and async runs (query/runs.ts)
 *
 * Records (times are microseconds since the epoch; see model.ts)
 *   store.users, store.organizations, store.projects (projects pending deletion included, as everywhere)
 *   store.keys: Map<phx_ value, ApiKey>     store.createKey({ scopes, organizations?, projects? }) -> value
 *   store.mainUser                          owner of every seeded key (the "logged-in" user)
 *   store.activity                          activity log entries (logActivity(...) appends one)
 *
 * Look-ups
 *   getOrganization(id), getProject(id)     (projects pending deletion included: PostHog still serves them)
 *   projectsOf(orgId), visibleProjects()    every project (pending deletion included)
 *   notebooksOf(projectId)                  every notebook of a project, deleted ones included
 *   getNotebook(projectId, shortId)         deleted ones included
 *   eventsOf(projectId): EventTable         see events.ts (persons, sorted rows, record(row), find(uuid))
 *   propertyDefinitionsOf(projectId)        the project's property definitions (property-definitions.ts): read from its
 *                                           events and persons, plus `add(kind, name, value)` for a property seen long ago
 *   currentProjectOf(userId)
 *
 * Changes (each records activity like the real server)
 *   createProject(orgId, fields, userId?), updateProject(project, fields, userId?), deleteProject(project, userId?)
 *   (scheduled as PostHog does, see settings.projectDeletion), cancelProjectDeletion(project, userId?),
 *   resetProjectToken(project, userId?)
 *   createNotebook(projectId, fields, userId?), updateNotebook(notebook, fields, userId?) (PATCH semantics,
 *   409 on a stale version), editNotebookRemotely(projectId, shortId, { title?, content?, deleted? }, userId?)
 *   (another user's edit: bumps the version when content changes); a content change publishes an update on
 *   store.collab, the notebook's collaboration stream (see collab.ts)
 *   finishDueDeletions()                    removes projects whose deletion ran (a minute after its scheduled time;
 *                                           the server calls it before every request)
 *   purgeDeletedProjects()                  finishes every deletion now: removes pending projects entirely
 *
 * Bulk helpers for tests
 *   addProjects(orgId, n): Project[]          "Bulk project 1..n"
 *   addNotebooks(projectId, n): Notebook[]    small real documents, last_modified spread over the past days
 *   addEvents(projectId, n, { withinHours? = 24 }): void   generated events in the last `withinHours`
 *   addEventsBetween(projectId, n, fromMicros, toMicros): void   generated events in (from, to] (live events)
 *   addSteadyEvents(projectId, n, { perSecond? = 1, clusterEvery?, clusterSize? })   a steady stream back from now,
 *                                           every clusterEvery-th instant holding clusterSize events on one timestamp
 *   addEvent(projectId, { event, distinct_id?, properties?, timestamp?, uuid?, elements_chain? }): EventRecord
 */
import type { ActivityChange, ActivityEntry, ApiKey, Json, JsonObject, Notebook, Organization, Project, User } from './model';
import { EventTable, type EventRecord, type NewEvent } from './events';
import { EventWindowCache } from './events-query';
import { PropertyDefinitions } from './property-definitions';
import { Rng, randomBase62 } from './random';
import { conflict, permissionDenied } from './errors';
import { defaultProjectSettings } from './defaults';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from './time';
import { makeNotebookContent } from './notebook-samples';
import { textContentOf } from './content';
import { CollabStreams } from './collab';
import { QueryRuns } from './query/runs';

export interface StoreSettings {
  maxProjectsPerOrganization: number | null;
  projectDeletionDisabled: boolean;
  /** A REST create stores a Markdown notebook, as PostHog does since PR #100471 (false: an older server, content as sent). */
  newNotebooksAsMarkdown: boolean;
  /** Markdown notebooks' Markdown left out of notebook responses (read it from .../markdown/), as PostHog plans. */
  markdownOutOfResponses: boolean;
  /** The Query API (/api/projects/:id/query/) exists; false answers 404 there, as older self-hosted servers do. */
  queryApi: boolean;
  /** GET /api/projects/:id/property_definitions/ exists; false answers 404 there (an older server, for clients' fallbacks). */
  propertyDefinitionsApi: boolean;
  /** How long an async query run takes before it completes (ms), so clients can poll and cancel it. */
  queryRunMs: number;
  /** What DELETE does to a project without events (see the top of this file); one with events always waits 48 hours. */
  projectDeletion: ProjectDeletionMode;
  /** The next cancel-deletion fails this way (then back to null). */
  cancelDeletionRefusal: 'race' | 'temporal' | null;
  /** A hostile or broken server: activity pages hold every entry whatever limit was asked. */
  activityIgnoresLimit: boolean;
}

export type ProjectDeletionMode = 'scheduled' | 'at-once' | 'legacy';

/** PostHog's delays (posthog/temporal/delete_teams/dispatch.py at 3baaad06): 48 hours with events, else 1 hour. */
export const DELETION_DELAY_WITH_EVENTS_MICROS = 48 * MICROS_PER_HOUR;
export const DELETION_DELAY_WITHOUT_EVENTS_MICROS = MICROS_PER_HOUR;
/** How long the local deletion workflow runs once started: the project is readable, and no longer cancellable, meanwhile. */
export const DELETION_RUN_MICROS = 60_000_000;

/** PostHog's MAX_ALLOWED_PROJECTS_PER_ORG: the cap of plans without a project limit. */
export const MAX_PROJECTS_PER_ORGANIZATION = 2000;

export class Store {
  readonly users: User[] = [];
  readonly organizations: Organization[] = [];
  readonly projects: Project[] = [];
  readonly keys = new Map<string, ApiKey>();
  readonly activity: ActivityEntry[] = [];
  readonly settings: StoreSettings = {
    maxProjectsPerOrganization: null,
    projectDeletionDisabled: false,
    newNotebooksAsMarkdown: true,
    markdownOutOfResponses: false,
    queryApi: true,
    propertyDefinitionsApi: true,
    queryRunMs: 0,
    projectDeletion: 'scheduled',
    cancelDeletionRefusal: null,
    activityIgnoresLimit: false,
  };
  readonly rng: Rng;
  /** Each notebook's collaboration stream (collab.ts): a PATCH with content publishes an update to it. */
  readonly collab: CollabStreams;
  /** The events list's cache of the window that gave half a page (PostHog keeps it in Django's cache). */
  readonly eventWindows = new EventWindowCache();
  /** The Query API's cached results and async runs (query/runs.ts). */
  readonly queries: QueryRuns = new QueryRuns(this);
  private readonly notebooks = new Map<number, Notebook[]>();
  private readonly events = new Map<number, EventTable>();
  private readonly definitions = new Map<number, PropertyDefinitions>();
  private readonly currentProject = new Map<number, number>();
  private lastMicros = 0;
  private nextProjectId = 1;
  private nextPersonId = 1;

  constructor(private readonly clock: () => Date, seedName: string) {
    this.rng = new Rng(`posthog-local-api:${seedName}`);
    this.collab = new CollabStreams(() => this.clock().getTime());
  }

  now(): Date {
    return this.clock();
  }

  nowMicros(): number {
    this.lastMicros = Math.max(this.clock().getTime() * 1000, this.lastMicros + 1);
    return this.lastMicros;
  }

  get mainUser(): User {
    return this.users[0]!;
  }

  // ---- users, organizations, keys ------------------------------------------------------------

  addUser(first: string, last: string, email: string, extra: Partial<User> = {}): User {
    const id = this.users.length + 1;
    const joined = this.clock().getTime() * 1000 - (400 - id * 7) * MICROS_PER_DAY;
    const user: User = {
      id, uuid: this.rng.uuid(joined / 1000), distinct_id: this.rng.base62(43), first_name: first, last_name: last, email,
      is_email_verified: true, hedgehog_config: { use_as_profile: false, color: null, accessories: [], skin: 'default' },
      role_at_organization: 'engineering', date_joined: joined, ...extra,
    };
    this.users.push(user);
    return user;
  }

  addOrganization(name: string, members: { userId: number; level: number }[], createdDaysAgo = 300): Organization {
    const created = this.clock().getTime() * 1000 - createdDaysAgo * MICROS_PER_DAY;
    const org: Organization = {
      id: this.rng.uuid(created / 1000), name, slug: slugify(name), created_at: created, updated_at: created, members,
    };
    this.organizations.push(org);
    return org;
  }

  getOrganization(id: string): Organization | undefined {
    return this.organizations.find((o) => o.id === id.toLowerCase());
  }

  membershipLevel(org: Organization, userId: number): number | null {
    return org.members.find((m) => m.userId === userId)?.level ?? null;
  }

  getUser(id: number | null): User | null {
    return id === null ? null : (this.users.find((u) => u.id === id) ?? null);
  }

  addKey(key: Omit<ApiKey, 'id' | 'createdAt'> & Partial<Pick<ApiKey, 'id' | 'createdAt'>>): string {
    const createdAt = key.createdAt ?? this.clock().getTime() * 1000 - 30 * MICROS_PER_DAY;
    this.keys.set(key.value, { ...key, id: key.id ?? this.rng.uuid(createdAt / 1000), createdAt });
    return key.value;
  }

  createKey(opts: { scopes: string[]; organizations?: string[]; projects?: number[] }): string {
    return this.addKey({ value: `phx_${randomBase62(43)}`, label: 'test key', userId: this.mainUser.id, ...opts });
  }

  // ---- projects --------------------------------------------------------------------------------

  getProject(id: number): Project | undefined {
    return this.projects.find((p) => p.id === id);
  }

  projectsOf(orgId: string): Project[] {
    return this.projects.filter((p) => p.organizationId === orgId);
  }

  visibleProjects(): Project[] {
    return this.projects;
  }

  currentProjectOf(userId: number): Project | null {
    const id = this.currentProject.get(userId);
    const project = id === undefined ? undefined : this.getProject(id);
    if (project) return project;
    const orgIds = new Set(this.organizations.filter((o) => this.membershipLevel(o, userId) !== null).map((o) => o.id));
    return this.visibleProjects().find((p) => orgIds.has(p.organizationId)) ?? null;
  }

  setCurrentProject(userId: number, projectId: number): void {
    this.currentProject.set(userId, projectId);
  }

  defaultProjectName(orgId: string): string {
    const taken = new Set(this.projectsOf(orgId).map((p) => p.name.trim().toLowerCase()));
    if (!taken.has('default project')) return 'Default project';
    for (let n = 2; ; n++) if (!taken.has(`default project ${n}`)) return `Default project ${n}`;
  }

  /**
   * PostHog's PremiumMultiProjectPermission: 403 when the organization's non-demo projects (pending deletion
   * included) reach the plan's limit (settings.maxProjectsPerOrganization), or 2000 without one; a demo project
   * is refused when the organization already has one, and counts for neither.
   */
  checkProjectLimit(orgId: string, demo = false): void {
    const projects = this.projects.filter((p) => p.organizationId === orgId);
    const planLimit = permissionDenied(
      'You have reached the maximum limit of allowed projects for your current plan. Upgrade your plan to be able to create and manage more projects.',
    );
    if (demo && projects.some((p) => p.settings['is_demo'] === true)) throw planLimit;
    const count = projects.filter((p) => p.settings['is_demo'] !== true).length;
    const limit = this.settings.maxProjectsPerOrganization;
    if (limit === null && count >= MAX_PROJECTS_PER_ORGANIZATION) {
      throw permissionDenied(
        `You have reached the maximum limit of ${MAX_PROJECTS_PER_ORGANIZATION} projects per organization. Contact support if you'd like access to more projects.`,
      );
    }
    if (limit !== null && count >= limit) throw planLimit;
  }

  /** Creates a project; `fields` are validated writable fields (see defaults.ts). */
  createProject(orgId: string, fields: JsonObject = {}, userId: number | null = this.mainUser.id, createdAt?: number): Project {
    this.checkProjectLimit(orgId, fields['is_demo'] === true);
    const created = createdAt ?? this.nowMicros();
    const { name, ...settings } = fields;
    const projectName = typeof name === 'string' ? name : this.defaultProjectName(orgId);
    const project: Project = {
      id: this.nextProjectId++, uuid: this.rng.uuid(created / 1000), organizationId: orgId, name: projectName,
      api_token: `phc_${this.rng.base62(43)}`, created_at: created, updated_at: created, ingested_event: false,
      pendingDeletion: false, deletionScheduledAt: null, generatingDemoData: false, settings: { ...defaultProjectSettings(), ...settings },
      siteHost: `${slugify(projectName).replace(/-/g, '') || 'app'}.example.com`,
    };
    this.projects.push(project);
    this.notebooks.set(project.id, []);
    if (userId !== null) this.setCurrentProject(userId, project.id);
    this.logActivity(project, userId, 'Team', String(project.id), 'created', { name: project.name }, created);
    return project;
  }

  updateProject(project: Project, fields: JsonObject, userId: number | null = this.mainUser.id): void {
    const changes: ActivityChange[] = [];
    for (const [field, value] of Object.entries(fields)) {
      let next = value;
      if (field === 'modifiers' && isObject(value) && isObject(project.settings['modifiers'] ?? null)) {
        next = { ...(project.settings['modifiers'] as JsonObject), ...value };
      }
      const before = field === 'name' ? project.name : (project.settings[field] ?? null);
      if (JSON.stringify(before) === JSON.stringify(next)) continue;
      changes.push(change('Team', field, before, next));
      if (field === 'name') project.name = next as string;
      else project.settings[field] = next;
    }
    project.updated_at = this.nowMicros();
    if (changes.length) this.logActivity(project, userId, 'Team', String(project.id), 'updated', { name: project.name, changes });
  }

  /**
   * PostHog's perform_destroy: the project (and its one environment here) is marked pending deletion with the
   * time its deletion runs, 48 hours later when it has ingested events, else as settings.projectDeletion says;
   * "deleted" activity for the environment (Team) and the project (Project). A deletion due now runs at once
   * here (the local workflow is instantaneous), as does every deletion of the legacy mode.
   */
  deleteProject(project: Project, userId: number | null = this.mainUser.id): void {
    this.logDeletionActivity(project, userId, 'deleted');
    const mode = this.settings.projectDeletion;
    const delay = project.ingested_event ? DELETION_DELAY_WITH_EVENTS_MICROS : mode === 'scheduled' ? DELETION_DELAY_WITHOUT_EVENTS_MICROS : 0;
    if (mode === 'legacy' || delay === 0) {
      this.removeProject(project);
      return;
    }
    project.pendingDeletion = true;
    project.deletionScheduledAt = this.clock().getTime() * 1000 + delay;
  }

  /** The project's deletion has started: its scheduled time has come (PostHog then refuses to cancel it). */
  deletionStarted(project: Project): boolean {
    return project.pendingDeletion && (project.deletionScheduledAt ?? 0) <= this.clock().getTime() * 1000;
  }

  /** PostHog's cancel_deletion once its checks passed: back to normal, "restored" activity for Team and Project. */
  cancelProjectDeletion(project: Project, userId: number | null = this.mainUser.id): void {
    project.pendingDeletion = false;
    project.deletionScheduledAt = null;
    this.logDeletionActivity(project, userId, 'restored');
  }

  finishDueDeletions(): void {
    const now = this.clock().getTime() * 1000;
    for (const project of this.projects.filter((p) => p.pendingDeletion && (p.deletionScheduledAt ?? 0) + DELETION_RUN_MICROS <= now)) {
      this.removeProject(project);
    }
  }

  purgeDeletedProjects(): void {
    for (const project of this.projects.filter((p) => p.pendingDeletion)) this.removeProject(project);
  }

  private removeProject(project: Project): void {
    const index = this.projects.indexOf(project);
    if (index >= 0) this.projects.splice(index, 1);
    this.notebooks.delete(project.id);
    this.events.delete(project.id);
  }

  private logDeletionActivity(project: Project, userId: number | null, activity: 'deleted' | 'restored'): void {
    for (const scope of ['Team', 'Project'] as const) {
      this.logActivity(project, userId, scope, String(project.id), activity, { name: project.name });
    }
  }

  resetProjectToken(project: Project, userId: number | null = this.mainUser.id): void {
    const before = project.api_token;
    project.api_token = `phc_${this.rng.base62(43)}`;
    project.updated_at = this.nowMicros();
    this.logActivity(project, userId, 'Team', String(project.id), 'updated', {
      name: project.name, changes: [change('Team', 'api_token', before, project.api_token)],
    });
  }

  addProjects(orgId: string, n: number): Project[] {
    const start = this.projectsOf(orgId).length;
    return Array.from({ length: n }, (_, i) => this.createProject(orgId, { name: `Bulk project ${start + i + 1}` }, null));
  }

  // ---- notebooks -------------------------------------------------------------------------------

  notebooksOf(projectId: number): Notebook[] {
    return this.notebooks.get(projectId) ?? [];
  }

  getNotebook(projectId: number, shortId: string): Notebook | undefined {
    return this.notebooksOf(projectId).find((n) => n.short_id === shortId);
  }

  /** Creates a notebook from validated fields (title, content, text_content, version, deleted). */
  createNotebook(projectId: number, fields: JsonObject, userId: number | null = this.mainUser.id, at?: number): Notebook {
    const created = at ?? this.nowMicros();
    const notebook: Notebook = {
      id: this.rng.uuid(created / 1000), short_id: this.rng.base62(8), projectId,
      title: (fields['title'] as string | null | undefined) ?? null, content: fields['content'] ?? null,
      text_content: (fields['text_content'] as string | null | undefined) ?? null,
      version: (fields['version'] as number | undefined) ?? 0, deleted: (fields['deleted'] as boolean | undefined) ?? false,
      created_at: created, createdById: userId, last_modified_at: created, lastModifiedById: userId,
    };
    this.notebooks.get(projectId)?.push(notebook);
    const project = this.projects.find((p) => p.id === projectId)!;
    this.logActivity(project, userId, 'Notebook', notebook.short_id, 'created', { name: notebook.title, short_id: notebook.short_id }, created);
    return notebook;
  }

  /**
   * PostHog's notebook update: any field refreshes last_modified_*; `content` (any value, null and {}
   * included) must come with the current `version` (else 409) and bumps it; `version` alone is stored as sent.
   */
  updateNotebook(notebook: Notebook, fields: JsonObject, userId: number | null = this.mainUser.id): void {
    const before = { title: notebook.title, content: notebook.content, deleted: notebook.deleted };
    const values = { ...fields };
    if ('content' in values) {
      if (values['version'] !== notebook.version) throw conflict('Someone else edited the Notebook');
      values['version'] = notebook.version + 1;
    }
    if (Object.keys(values).length > 0) {
      notebook.last_modified_at = this.nowMicros();
      notebook.lastModifiedById = userId;
    }
    for (const [field, value] of Object.entries(values)) (notebook as unknown as JsonObject)[field] = value;
    if ('content' in values) this.collab.publishPatch(notebook, before.content);
    const changes = (['title', 'content', 'deleted'] as const)
      .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(notebook[f]))
      .map((f) => change('Notebook', f, before[f], notebook[f]));
    const deletedChange = changes.find((c) => c.field === 'deleted');
    const activity = deletedChange ? (deletedChange.after === false ? 'restored' : 'deleted') : 'updated';
    const project = this.projects.find((p) => p.id === notebook.projectId)!;
    this.logActivity(project, userId, 'Notebook', notebook.short_id, activity, { name: notebook.title, short_id: notebook.short_id, changes });
  }

  /** Simulates another user's edit in the browser (sends the current version, so it always wins). */
  editNotebookRemotely(projectId: number, shortId: string, edit: { title?: string; content?: Json; deleted?: boolean }, userId?: number): Notebook {
    const notebook = this.getNotebook(projectId, shortId);
    if (!notebook) throw new Error(`No notebook ${shortId} in project ${projectId}`);
    const fields: JsonObject = { ...edit };
    if (edit.content !== undefined) {
      fields['version'] = notebook.version;
      fields['text_content'] = textContentOf(edit.content);
    }
    this.updateNotebook(notebook, fields, userId ?? (this.users[1] ?? this.mainUser).id);
    return notebook;
  }

  addNotebooks(projectId: number, n: number): Notebook[] {
    const now = this.clock().getTime() * 1000;
    const authors = this.users.slice(0, 4);
    return Array.from({ length: n }, (_, i) => {
      const content = makeNotebookContent(this.rng, `Bulk notebook ${i + 1}`, i);
      const at = now - Math.floor(this.rng.next() * 30 * MICROS_PER_DAY) - i;
      return this.createNotebook(projectId, { title: `Bulk notebook ${i + 1}`, content, text_content: textContentOf(content) }, authors[i % authors.length]!.id, at);
    });
  }

  // ---- events ----------------------------------------------------------------------------------

  eventsOf(projectId: number): EventTable {
    let table = this.events.get(projectId);
    if (!table) {
      const project = this.projects.find((p) => p.id === projectId);
      if (!project) throw new Error(`No project ${projectId}`);
      table = new EventTable({ host: project.siteHost, token: project.api_token }, () => this.nextPersonId++);
      this.events.set(projectId, table);
    }
    return table;
  }

  propertyDefinitionsOf(projectId: number): PropertyDefinitions {
    let definitions = this.definitions.get(projectId);
    if (!definitions) {
      definitions = new PropertyDefinitions(this.eventsOf(projectId), projectId, () => this.clock().getTime());
      this.definitions.set(projectId, definitions);
    }
    return definitions;
  }

  addEvents(projectId: number, n: number, opts: { withinHours?: number } = {}): void {
    const now = this.clock().getTime() * 1000;
    const table = this.eventsOf(projectId);
    table.generate(n, this.rng, now - (opts.withinHours ?? 24) * MICROS_PER_HOUR, now - 1_000_000);
    this.markIngested(projectId);
  }

  /** n generated events with times in (fromMicros, toMicros] (live events: see live-events.ts). */
  addEventsBetween(projectId: number, n: number, fromMicros: number, toMicros: number): void {
    this.eventsOf(projectId).generate(n, this.rng, fromMicros, toMicros);
    this.markIngested(projectId);
  }

  /**
   * `count` generated events at a steady `perSecond` (default 1) back from a second before now, as a
   * quiet project sees them; with `clusterEvery` N, every Nth instant holds `clusterSize` events on the
   * very same timestamp (a batch import, a retried request). Returns the oldest and newest times.
   */
  addSteadyEvents(projectId: number, count: number, opts: { perSecond?: number; clusterEvery?: number; clusterSize?: number } = {}): { oldestMicros: number; newestMicros: number } {
    const step = 1_000_000 / (opts.perSecond ?? 1);
    const newest = this.clock().getTime() * 1000 - 1_000_000;
    const times: number[] = [];
    for (let instant = 0; times.length < count; instant++) {
      const at = newest - Math.round(instant * step) - this.rng.int(0, Math.floor(step / 2));
      const copies = opts.clusterEvery && instant % opts.clusterEvery === 0 ? Math.max(1, opts.clusterSize ?? 1) : 1;
      for (let copy = 0; copy < copies && times.length < count; copy++) times.push(at);
    }
    this.eventsOf(projectId).generateAt(times, this.rng);
    this.markIngested(projectId);
    return { oldestMicros: times[times.length - 1] ?? newest, newestMicros: times[0] ?? newest };
  }

  addEvent(projectId: number, event: NewEvent): EventRecord {
    const record = this.eventsOf(projectId).addExplicit(event, this.clock().getTime() * 1000, this.rng);
    this.markIngested(projectId);
    return record;
  }

  private markIngested(projectId: number): void {
    const project = this.projects.find((p) => p.id === projectId);
    if (project) project.ingested_event = true;
  }

  // ---- activity --------------------------------------------------------------------------------

  activityFor(scope: ActivityEntry['scope'], projectId: number, itemIds?: string[]): ActivityEntry[] {
    return this.activity
      .filter((a) => a.scope === scope && a.projectId === projectId && (!itemIds || itemIds.includes(a.item_id)))
      .sort((a, b) => b.created_at - a.created_at);
  }

  /** Appends an activity entry (the seeds use it to write history). */
  logActivity(project: Project, userId: number | null, scope: ActivityEntry['scope'], itemId: string, activity: string,
    detail: { name: string | null; short_id?: string; changes?: ActivityChange[] }, at?: number): void {
    const created = at ?? this.nowMicros();
    this.activity.push({
      id: this.rng.uuid(created / 1000), organizationId: project.organizationId, projectId: project.id, userId, scope,
      item_id: itemId, activity, detail: { changes: detail.changes ?? null, name: detail.name, short_id: detail.short_id ?? null },
      created_at: created,
    });
  }
}

function change(type: string, field: string, before: Json, after: Json): ActivityChange {
  const action = before === null || before === undefined ? 'created' : after === null ? 'deleted' : 'changed';
  return { type, action, field, before: before ?? null, after: after ?? null };
}

function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function slugify(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
