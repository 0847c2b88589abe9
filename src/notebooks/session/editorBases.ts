import { createHash } from 'node:crypto';
import type { BaseSnapshot } from '../saving/markdownSavePlan';
import type { BaseStore, EditorFacts, SessionLog } from './ports';
import { planRemoteMerge } from './remoteMerge';

/**
 * How long a closed editor's record is kept: VS Code closes and reopens a document when its language mode
 * changes, and the reopened editor (unsaved text included) must keep its base.
 */
const FORGET_AFTER_CLOSE_MS = 30_000;
/** How many saved texts that PostHog merged, which an editor has moved past, are remembered. */
const SUPERSEDED_KEPT = 8;
/** How many of the session's edits of an editor are remembered until a text handed over shows which it holds. */
const EDITS_KEPT = 4;

/** The session changed an editor's text (a merge, conflict markers): `replaced` became `made`, which `before` lacks. */
interface SessionEdit {
  readonly before: BaseSnapshot | undefined;
  readonly replaced: string;
  readonly made: string;
}

interface EditorRecord {
  /** The last text served for the URI (a read). */
  served?: BaseSnapshot;
  /** What the editor's text derives from: a save of it merges against this. */
  base?: BaseSnapshot;
  /** The lowest modification time served for the URI. */
  firstMtime?: number;
  /** Digests of saved texts PostHog merged that the editor has moved past. */
  superseded: string[];
  /** The session's latest edits of the editor's text, oldest first: a text VS Code took before one lacks its base. */
  edits: SessionEdit[];
  /** The base is kept on disk (the editor has unsaved changes). */
  archived: boolean;
  closing?: ReturnType<typeof setTimeout>;
}

/**
 * What each editor of one notebook holds, by URI: the text last served to it, and the base its text derives
 * from. The base moves only when the editor's text does: a clean editor takes a served text as its base once
 * it shows exactly that text; a save makes the saved text the base (with the version PostHog made of it,
 * `merged` when PostHog mixed in others' changes the text lacks); a merge that rewrites the editor's text
 * makes PostHog's version the base. A saved text that PostHog merged stays known (as a digest) once the
 * editor moves past it: a save of it again carries nothing new. While the editor has unsaved changes its
 * base is kept on disk, so that it survives a window reload (VS Code restores the unsaved text itself).
 */
export class EditorBases {
  private readonly records = new Map<string, EditorRecord>();

  constructor(
    private readonly editors: EditorFacts,
    private readonly archive: BaseStore,
    private readonly log: SessionLog,
  ) {}

  /** A read served this text (and version) for `uri`. */
  served(uri: string, snapshot: BaseSnapshot): void {
    const record = this.record(uri);
    record.served = snapshot;
    record.firstMtime = Math.min(snapshot.mtime, record.firstMtime ?? snapshot.mtime);
    this.follow(uri);
  }

  /** A save wrote `snapshot.text` to `uri`: VS Code now holds that text for it, based on the version that took it. */
  written(uri: string, snapshot: BaseSnapshot): void {
    const record = this.record(uri);
    record.served = snapshot;
    this.setBase(uri, record, snapshot);
  }

  /** The editor of `uri` now holds text based on `snapshot` (a discard or a restore rewrote it). */
  rebase(uri: string, snapshot: BaseSnapshot): void {
    const record = this.record(uri);
    record.edits = [];
    this.setBase(uri, record, snapshot);
  }

  /**
   * The session turned the editor's text `replaced` into `made` (already in the editor), based on `snapshot`. A
   * text VS Code took before that edit landed, and hands over later, keeps the base it was made from (handOver).
   */
  edited(uri: string, replaced: string, made: string, snapshot: BaseSnapshot): void {
    const record = this.record(uri);
    const edits = [...record.edits, { before: record.base ?? record.served, replaced, made }];
    // Two oldest edits read as one: a text without the later one is then planned against the earlier base.
    record.edits = edits.length > EDITS_KEPT ? [{ ...edits[0]!, made: edits[1]!.made }, ...edits.slice(2)] : edits;
    this.setBase(uri, record, snapshot);
  }

  /**
   * The base of `text`, which VS Code hands over to be saved as the file `uri` now: fixed at this moment, whatever
   * the session does before the save runs. The editor's current base when `text` is the editor's text (a base
   * moves only after the edit that made the text hold it); else VS Code took the text earlier, and of the
   * session's edits since, those it does not hold give it the base from before them.
   */
  handOver(uri: string, text: string): Promise<BaseSnapshot | undefined> {
    const record = this.records.get(uri);
    if (!record?.base) {
      // Not known in this window: the base an earlier window kept (as it was now, not as a merge may make it meanwhile).
      const served = record?.served;
      return this.archive
        .load(uri)
        .catch(() => undefined)
        .then((archived) => (archived ? this.adopt(uri, archived) : undefined) ?? served);
    }
    if (this.editors.textOf(uri) === text) {
      record.edits = [];
      return Promise.resolve(record.base);
    }
    let base: BaseSnapshot | undefined = record.base;
    for (const edit of [...record.edits].reverse()) {
      if (holdsEdit(text, edit)) {
        break;
      }
      base = edit.before;
    }
    return Promise.resolve(base);
  }

  /** What the editor of `uri` is based on: in memory, else kept by an earlier window, else the last text served. */
  async baseOf(uri: string): Promise<BaseSnapshot | undefined> {
    const known = this.records.get(uri);
    if (known?.base) {
      return known.base;
    }
    const archived = await this.archive.load(uri).catch(() => undefined);
    if (!archived) {
      return known?.served;
    }
    this.adopt(uri, archived);
    return this.record(uri).base;
  }

  /** The base an earlier window kept for `uri` becomes the editor's, unless it has one by now. */
  private adopt(uri: string, archived: BaseSnapshot): BaseSnapshot {
    const record = this.record(uri);
    if (!record.base) {
      record.base = archived;
      record.archived = true;
      this.log.info(`Restored the base of ${uri} (version ${archived.version}) kept by an earlier window.`);
    }
    return archived;
  }

  /** What the editor of `uri` is based on, if known in this window (no disk read). */
  known(uri: string): BaseSnapshot | undefined {
    const record = this.records.get(uri);
    return record?.base ?? record?.served;
  }

  /** Whether `text` is a saved text PostHog merged with others' changes, which the editor of `uri` has moved past: it carries no change of its own. */
  isSuperseded(uri: string, text: string): boolean {
    return this.records.get(uri)?.superseded.includes(digest(text)) === true;
  }

  /**
   * While the editor of `uri` has unsaved changes: a modification time no later than any it was told (its
   * base's, or the first served if lower: another save, e.g. of the notebook's other file, may have moved
   * things on since). Undefined when it is clean.
   */
  async dirtyMtime(uri: string): Promise<number | undefined> {
    if (!this.editors.isDirty(uri)) {
      return undefined;
    }
    const known = [(await this.baseOf(uri))?.mtime, this.records.get(uri)?.firstMtime].filter((mtime): mtime is number => mtime !== undefined);
    return known.length > 0 ? Math.min(...known) : undefined;
  }

  /** The editor of `uri` opened, changed or was saved. */
  follow(uri: string): void {
    const record = this.records.get(uri);
    if (!record || !this.editors.isOpen(uri)) {
      return;
    }
    clearTimeout(record.closing);
    record.closing = undefined;
    if (this.editors.isDirty(uri)) {
      if (record.base && !record.archived) {
        void this.keep(uri, record, record.base);
      }
      return;
    }
    if (record.served && record.base !== record.served && this.editors.textOf(uri) === record.served.text) {
      record.edits = [];
      this.setBase(uri, record, record.served);
    }
    if (record.archived) {
      record.archived = false;
      void this.archive.remove(uri).catch(() => undefined);
    }
  }

  /** The editor of `uri` closed: its record goes after a while, unless it reopens. */
  closed(uri: string): void {
    const record = this.records.get(uri);
    if (!record) {
      return;
    }
    clearTimeout(record.closing);
    record.closing = setTimeout(() => this.forget(uri), FORGET_AFTER_CLOSE_MS);
  }

  /** The file `from` was renamed to `to` (the editor follows): the record moves with it. */
  move(from: string, to: string): void {
    const record = this.records.get(from);
    if (!record) {
      return;
    }
    this.records.delete(from);
    clearTimeout(record.closing);
    record.closing = undefined;
    this.records.set(to, record);
    if (record.archived && record.base) {
      record.archived = false;
      void this.archive.remove(from).catch(() => undefined);
      void this.keep(to, record, record.base);
    }
  }

  /** Whether no editor holds the notebook, or closed it moments ago (records of reads without an editor do not count). */
  get isIdle(): boolean {
    return [...this.records].every(([uri, record]) => record.closing === undefined && !this.editors.isOpen(uri));
  }

  dispose(): void {
    for (const record of this.records.values()) {
      clearTimeout(record.closing);
    }
  }

  private record(uri: string): EditorRecord {
    let record = this.records.get(uri);
    if (!record) {
      record = { superseded: [], edits: [], archived: false };
      this.records.set(uri, record);
    }
    return record;
  }

  private setBase(uri: string, record: EditorRecord, next: BaseSnapshot): void {
    // A saved text PostHog merged with others' changes lacks them: once the editor moves past it, a write of
    // it again (a retried save, autosave) would read as deleting them.
    if (record.base?.merged && record.base.text !== next.text) {
      supersede(record, record.base.text);
    }
    record.base = next;
    if (this.editors.isDirty(uri) || record.archived) {
      void this.keep(uri, record, next);
    }
  }

  private async keep(uri: string, record: EditorRecord, base: BaseSnapshot): Promise<void> {
    record.archived = true;
    try {
      await this.archive.save(uri, base);
    } catch (error) {
      record.archived = false;
      this.log.warn(`Could not keep the base of an unsaved notebook editor on disk: ${String(error)}`);
    }
  }

  private forget(uri: string): void {
    const record = this.records.get(uri);
    if (!record || this.editors.isOpen(uri)) {
      if (record) {
        record.closing = undefined;
      }
      return;
    }
    this.records.delete(uri);
    if (record.archived) {
      void this.archive.remove(uri).catch(() => undefined);
    }
  }
}

/** Whether `text` holds the changes of the session's `edit`: the edit's text itself, or one they merge into unchanged. */
function holdsEdit(text: string, edit: SessionEdit): boolean {
  if (text === edit.made) {
    return true;
  }
  if (text === edit.replaced) {
    return false;
  }
  const plan = planRemoteMerge(edit.replaced, text, edit.made);
  return plan.kind === 'unchanged' || (plan.kind === 'merged' && plan.text === text);
}

function supersede(record: EditorRecord, text: string): void {
  const known = digest(text);
  record.superseded = [known, ...record.superseded.filter((entry) => entry !== known)].slice(0, SUPERSEDED_KEPT);
}

function digest(text: string): string {
  return `${text.length}:${createHash('sha256').update(text).digest('base64')}`;
}
