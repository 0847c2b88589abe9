/**
 * PostHog's notebook collaboration streams, in memory (products/notebooks/backend/collab_stream.py,
 * markdown_collab.py, collab.py, posthog/collab/stream.py and presence.py; see the README).
 *
 * One content stream per notebook whose entry ids are versions: `N-0` for a versioned save (markdown_save's
 * update, a legacy notebook's ProseMirror step), `N-1` for the update a PATCH publishes. At most 5,000 entries,
 * gone a day after the last write. Presence rides a second, ephemeral stream (at most 256 entries, five
 * minutes) whose events carry no id. Open SSE connections are fed as entries arrive.
 */
import type { Json, JsonObject, Notebook } from './model';
import { markdownOf } from './content';

export const STREAM_MAX_LENGTH = 5000;
export const STREAM_TTL_MS = 24 * 60 * 60 * 1000;
export const PRESENCE_MAX_LENGTH = 256;
export const PRESENCE_TTL_MS = 5 * 60 * 1000;
export const PRESENCE_BACKFILL_MS = 10_000;
/** Above this many UTF-8 bytes of inserted text, an update carries no diff (receivers reload). */
export const MAX_PUBLISHED_DIFF_BYTES = 64 * 1024;

export interface StreamEntry {
  readonly version: number;
  /** 0: a versioned save's entry, 1: a PATCH's. */
  readonly sequence: 0 | 1;
  readonly event: 'update' | 'step';
  readonly data: JsonObject;
}

export interface TextChange {
  start: number;
  end: number;
  text: string;
}

export interface MarkdownDiff {
  changes: TextChange[];
  baseCrc: number;
}

/** What a subscriber (an open SSE connection) is sent. */
export interface StreamListener {
  content(entry: StreamEntry): void;
  presence(data: JsonObject): void;
  /** The connection ends (with PostHog's `event: error` first, when `error`). */
  close(error: boolean): void;
}

/** How open connections behave: PostHog's XREAD blocks 15 s (then a keepalive) and a connection lives 5 minutes. */
export interface StreamTiming {
  keepaliveMs: number;
  lifetimeMs: number;
}

export type MissedUpdates =
  | { readonly status: 'conflict'; readonly version: number; readonly updates: JsonObject[] }
  | { readonly status: 'stale'; readonly version: number };

interface NotebookStream {
  entries: StreamEntry[];
  lastWrite: number;
  presence: { at: number; data: JsonObject }[];
  listeners: Set<StreamListener>;
}

export class CollabStreams {
  private readonly streams = new Map<string, NotebookStream>();
  readonly timing: StreamTiming = { keepaliveMs: 15_000, lifetimeMs: 5 * 60_000 };

  constructor(private readonly now: () => number) {}

  /** The content entries of a notebook, oldest first (empty once the stream expired). */
  entries(notebook: Pick<Notebook, 'projectId' | 'short_id'>): readonly StreamEntry[] {
    return this.stream(notebook).entries;
  }

  /** An open connection hears every entry and caret from now on, until the returned function is called. */
  listen(notebook: Notebook, listener: StreamListener): () => void {
    const stream = this.stream(notebook);
    stream.listeners.add(listener);
    return () => stream.listeners.delete(listener);
  }

  /** The presence of the last 10 seconds, replayed on connect. */
  recentPresence(notebook: Notebook): JsonObject[] {
    const since = this.now() - PRESENCE_BACKFILL_MS;
    return this.stream(notebook).presence.filter((entry) => entry.at > since).map((entry) => entry.data);
  }

  /** The update a PATCH with content publishes (`N-1`): a diff when both versions are Markdown notebooks. */
  publishPatch(notebook: Notebook, previousContent: Json): void {
    const data: JsonObject = { type: 'update', version: notebook.version };
    const diff = markdownUpdateDiff(previousContent, notebook.content);
    if (diff) {
      data['diff'] = diff.changes as unknown as Json;
      data['base_crc'] = diff.baseCrc;
    }
    this.append(notebook, { version: notebook.version, sequence: 1, event: 'update', data });
  }

  /**
   * The version-checked append of a versioned save (PostHog's CAS script): accepted when the stream's newest
   * version is `lastSeen` (or the stream is empty, or behind, and `lastSeen` is the stored version).
   */
  submit(notebook: Notebook, lastSeen: number, event: 'update' | 'step', data: JsonObject): { accepted: true; version: number } | { accepted: false; missed: MissedUpdates } {
    const stream = this.stream(notebook);
    const newest = stream.entries[stream.entries.length - 1];
    if (!newest && lastSeen !== notebook.version) {
      return { accepted: false, missed: { status: 'stale', version: notebook.version } };
    }
    const top = newest && !(newest.version < lastSeen && lastSeen === notebook.version) ? newest.version : lastSeen;
    if (top !== lastSeen) {
      return { accepted: false, missed: this.missed(notebook, lastSeen, top) };
    }
    const version = top + 1;
    this.append(notebook, { version, sequence: 0, event, data });
    return { accepted: true, version };
  }

  /** The Markdown updates of versions (lastSeen, current], or stale when any cannot be replayed. */
  missed(notebook: Notebook, lastSeen: number, current: number): MissedUpdates {
    if (current <= lastSeen) {
      return { status: 'stale', version: current };
    }
    const byVersion = new Map<number, JsonObject>();
    for (const entry of this.stream(notebook).entries) {
      if (entry.version <= lastSeen || entry.version > current || byVersion.has(entry.version)) continue;
      const diff = entry.data['diff'];
      if (entry.event !== 'update' || !Array.isArray(diff)) {
        return { status: 'stale', version: current };
      }
      const baseCrc = entry.data['base_crc'];
      const clientId = entry.data['client_id'];
      byVersion.set(entry.version, {
        version: entry.version,
        diff,
        base_crc: typeof baseCrc === 'number' ? baseCrc : null,
        client_id: typeof clientId === 'string' ? clientId : null,
      });
    }
    const updates: JsonObject[] = [];
    for (let version = lastSeen + 1; version <= current; version++) {
      const update = byVersion.get(version);
      if (!update) return { status: 'stale', version: current };
      updates.push(update);
    }
    return { status: 'conflict', version: current, updates };
  }

  /** A caret broadcast: lossy, kept five minutes, the last 256. */
  publishPresence(notebook: Notebook, data: JsonObject): void {
    const stream = this.stream(notebook);
    const at = this.now();
    stream.presence = [...stream.presence.filter((entry) => entry.at > at - PRESENCE_TTL_MS), { at, data }].slice(-PRESENCE_MAX_LENGTH);
    for (const listener of stream.listeners) listener.presence(data);
  }

  /** Open connections, of every notebook. */
  listenerCount(): number {
    let count = 0;
    for (const stream of this.streams.values()) count += stream.listeners.size;
    return count;
  }

  /** Ends every open connection (a redeploy; with `error`, a Redis failure: PostHog's `event: error`). */
  closeAll(error: boolean): number {
    let closed = 0;
    for (const stream of this.streams.values()) {
      for (const listener of [...stream.listeners]) {
        listener.close(error);
        closed++;
      }
    }
    return closed;
  }

  private append(notebook: Pick<Notebook, 'projectId' | 'short_id'>, entry: StreamEntry): void {
    const stream = this.stream(notebook);
    stream.entries.push(entry);
    if (stream.entries.length > STREAM_MAX_LENGTH) stream.entries.splice(0, stream.entries.length - STREAM_MAX_LENGTH);
    stream.lastWrite = this.now();
    for (const listener of stream.listeners) listener.content(entry);
  }

  private stream(notebook: Pick<Notebook, 'projectId' | 'short_id'>): NotebookStream {
    const key = `${notebook.projectId}:${notebook.short_id}`;
    let stream = this.streams.get(key);
    if (stream && stream.entries.length > 0 && this.now() - stream.lastWrite > STREAM_TTL_MS) {
      stream.entries = []; // the Redis key expired
    }
    if (!stream) {
      stream = { entries: [], lastWrite: this.now(), presence: [], listeners: new Set() };
      this.streams.set(key, stream);
    }
    return stream;
  }
}

/** The id of an entry: `N-0` or `N-1`. */
export function entryId(entry: Pick<StreamEntry, 'version' | 'sequence'>): string {
  return `${entry.version}-${entry.sequence}`;
}

/** Orders stream ids as Redis does: by the number before the dash, then the one after. */
export function compareIds(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** A stream id as Redis reads one (`N` alone means `N-0`); undefined when Redis would refuse it. */
export function parseStreamId(id: string): [number, number] | undefined {
  const match = /^(\d+)(?:-(\d+))?$/.exec(id.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : undefined;
}

/**
 * PostHog's diff between two Markdown-notebook documents: one replaced span in UTF-16 code units, never
 * splitting a surrogate pair, with the CRC-32 of the base; none when either is not a Markdown notebook,
 * nothing changed, or the inserted text is over 64 KiB of UTF-8.
 */
export function markdownUpdateDiff(previous: Json, next: Json): MarkdownDiff | undefined {
  const before = markdownOf(previous);
  const after = markdownOf(next);
  if (before === undefined || after === undefined || before === after) return undefined;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  const most = shorter - prefix;
  while (suffix < most && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(after.charCodeAt(after.length - suffix))) suffix--;
  const text = after.slice(prefix, after.length - suffix);
  if (Buffer.byteLength(text, 'utf8') > MAX_PUBLISHED_DIFF_BYTES) return undefined;
  return { changes: [{ start: prefix, end: before.length - suffix, text }], baseCrc: crc32Utf16(before) };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** zlib.crc32 of the text encoded as UTF-16-LE (lone surrogates as they are), as PostHog's markdown_crc. */
export function crc32Utf16(text: string): number {
  let crc = -1;
  const add = (byte: number) => {
    crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    add(unit & 0xff);
    add(unit >>> 8);
  }
  return (crc ^ -1) >>> 0;
}
