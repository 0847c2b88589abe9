import type { CallOptions, SuccessResponse, Transport } from '../http';
import { abortReason } from '../sleep';
import { SseParser } from '../sse';
import {
  type CollabCursor,
  CollabPresenceDataSchema,
  CollabStepDataSchema,
  CollabUpdateDataSchema,
  MarkdownSaveConflictSchema,
  type MissedUpdate,
  type Notebook,
  NotebookSchema,
  type TextChange,
} from '../schemas';
import { type ResourceContext, segment } from './context';

/**
 * PostHog's collaboration endpoints of a notebook (/api/projects/{project}/notebooks/{short_id}/collab/...), as
 * its web app and MCP tools use them: the stream of changes and carets, the versioned save of a Markdown
 * notebook, and the caret broadcast.
 */

/** The longest stream line and event read: a diff carries at most 64 KiB of inserted text, JSON escapes included. */
const MAX_STREAM_LINE_CHARS = 1024 * 1024;
const MAX_STREAM_EVENT_CHARS = 1024 * 1024;

export interface MarkdownSaveBody {
  /** This client's id: the stream's update carries it, so the client can skip its own. */
  client_id: string;
  /** The version the content is based on. */
  version: number;
  /** A Markdown-notebook document (one ph-markdown-notebook node), else 400. */
  content: unknown;
  /** The Markdown (PostHog stores "" when it is left out). */
  text_content: string;
  /** Left out: the title stays; "": no title. */
  title?: string;
  cursor?: CollabCursor;
}

export type MarkdownSaveAnswer =
  /** Saved: the notebook with its new version. */
  | { readonly kind: 'saved'; readonly notebook: Notebook }
  /** 409: PostHog is at `version`; `updates` are the ones the save missed, in order. */
  | { readonly kind: 'conflict'; readonly version: number; readonly updates: readonly MissedUpdate[] }
  /** 410: what was missed cannot be replayed; fetch the notebook and merge. */
  | { readonly kind: 'stale' };

export interface PresenceBody {
  client_id: string;
  version: number;
  cursor: CollabCursor;
}

/** What the stream tells, one item per event. */
export type CollabEvent =
  /**
   * The content moved to `version` (the N of the event's id `N-0` or `N-1`). `diff` turns the Markdown of
   * version N-1 (whose CRC-32 is `baseCrc`) into version N's; without it, the client reloads.
   */
  | {
      readonly kind: 'update';
      readonly id: string;
      readonly version: number;
      readonly diff?: readonly TextChange[];
      readonly baseCrc?: number;
      /** Set by a versioned save (markdown_save); a PATCH's update has none. */
      readonly clientId?: string;
      readonly userId?: number;
      readonly userName?: string;
      readonly cursor?: CollabCursor;
    }
  /** A legacy notebook's ProseMirror step made `version`: the client reloads. */
  | { readonly kind: 'step'; readonly id: string; readonly version: number; readonly clientId?: string; readonly userId?: number; readonly userName?: string }
  /** Someone's caret (lossy; no id). */
  | {
      readonly kind: 'presence';
      readonly clientId: string;
      readonly userId?: number;
      readonly userName?: string;
      readonly version?: number;
      readonly cursor?: CollabCursor;
    }
  /** The server ended the stream with `event: error`. */
  | { readonly kind: 'error' }
  /** An event that could not be read (over a size cap, not JSON, an id that is no version): something may be missed. */
  | { readonly kind: 'unreadable'; readonly reason: string };

/** An open stream: iterate its events; it ends when the server closes it (after five minutes, on PostHog). */
export class CollabStream implements AsyncIterable<CollabEvent> {
  private read = false;

  constructor(
    private readonly response: SuccessResponse,
    private readonly toError: (caught: unknown) => unknown,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<CollabEvent, void, undefined> {
    if (this.read) {
      throw new Error('A collaboration stream can be read only once.');
    }
    this.read = true;
    const parser = new SseParser({ maxLineChars: MAX_STREAM_LINE_CHARS, maxEventChars: MAX_STREAM_EVENT_CHARS });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body) {
        for (const item of parser.push(decoder.decode(chunk as Uint8Array, { stream: true }))) {
          yield item.kind === 'skipped' ? { kind: 'unreadable', reason: `an event over the size limit (${item.reason})` } : readEvent(item.event, item.data, item.id);
        }
      }
      parser.push(decoder.decode());
      parser.end();
    } catch (caught) {
      throw this.signal?.aborted ? abortReason(this.signal) : this.toError(caught);
    } finally {
      this.response.body.destroy();
    }
  }

  /** Stops reading. */
  close(): void {
    this.read = true;
    this.response.body.destroy();
  }
}

/** One event of the stream, read leniently. */
export function readEvent(event: string, data: string, id: string | undefined): CollabEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { kind: 'unreadable', reason: `"${event}" data that is not JSON` };
  }
  if (event === 'presence') {
    const presence = CollabPresenceDataSchema.safeParse(json);
    if (!presence.success) {
      return { kind: 'unreadable', reason: 'a presence event without a client id' };
    }
    const { client_id, user_id, user_name, version, cursor } = presence.data;
    return { kind: 'presence', clientId: client_id, userId: user_id, userName: user_name, version, cursor };
  }
  if (event === 'error') {
    return { kind: 'error' };
  }
  if (event !== 'update' && event !== 'step') {
    return { kind: 'unreadable', reason: `an event of unknown type "${event.slice(0, 40)}"` };
  }
  const version = versionOf(id);
  if (version === undefined) {
    return { kind: 'unreadable', reason: `an "${event}" event whose id is not a version` };
  }
  if (event === 'step') {
    const step = CollabStepDataSchema.safeParse(json);
    const fields = step.success ? step.data : {};
    return { kind: 'step', id: id!, version, clientId: fields.client_id, userId: fields.user_id, userName: fields.user_name };
  }
  const update = CollabUpdateDataSchema.safeParse(json);
  if (!update.success) {
    return { kind: 'unreadable', reason: 'an update that does not read' };
  }
  const { diff, base_crc, client_id, user_id, user_name, cursor } = update.data;
  return { kind: 'update', id: id!, version, diff, baseCrc: base_crc, clientId: client_id, userId: user_id, userName: user_name, cursor };
}

/** N of a content event id `N-0` / `N-1`. */
function versionOf(id: string | undefined): number | undefined {
  const match = id === undefined ? null : /^(\d{1,15})-\d{1,15}$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

export class NotebookCollabApi {
  constructor(private readonly context: ResourceContext) {}

  /**
   * Opens the notebook's stream: from now, or after `lastEventId` (the last content event's id). A server
   * without it answers 404 or 405 (NotFoundError, MethodNotAllowedError).
   */
  async stream(projectId: number | string, shortId: string, options: { lastEventId?: string } = {}, call?: CallOptions): Promise<CollabStream> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId) {
      headers['last-event-id'] = options.lastEventId;
    }
    const spec = { method: 'GET' as const, path: `${this.itemPath(projectId, shortId)}collab/stream/`, headers, longLived: true };
    return this.transport.send(spec, call, async (response) => new CollabStream(response, (caught) => this.transport.toPostHogError(caught, response.endpoint), call?.signal));
  }

  /** The versioned save of a Markdown notebook: saved, or what the save missed (409), or that it cannot be replayed (410). */
  async markdownSave(projectId: number | string, shortId: string, body: MarkdownSaveBody, call?: CallOptions): Promise<MarkdownSaveAnswer> {
    const spec = { method: 'POST' as const, path: `${this.itemPath(projectId, shortId)}collab/markdown_save/`, body, answers: [409, 410] };
    return this.transport.send(spec, call, async (response): Promise<MarkdownSaveAnswer> => {
      if (response.status === 410) {
        await response.body.dump();
        return { kind: 'stale' };
      }
      if (response.status === 409) {
        const conflict = await this.transport.parseJsonBody(response, MarkdownSaveConflictSchema);
        return { kind: 'conflict', version: conflict.version, updates: conflict.updates };
      }
      return { kind: 'saved', notebook: await this.transport.parseJsonBody(response, NotebookSchema) };
    });
  }

  /**
   * Broadcasts this client's caret to the others (PostHog answers 204; lossy by design). It yields first in
   * the key's budget: when carets have no room, BudgetWaitError at once, nothing sent.
   */
  async presence(projectId: number | string, shortId: string, body: PresenceBody, call?: CallOptions): Promise<void> {
    const spec = { method: 'POST' as const, path: `${this.itemPath(projectId, shortId)}collab/presence/`, body };
    return this.transport.noContent(spec, { priority: 'presence', noWait: true, ...call });
  }

  private get transport(): Transport {
    return this.context.transport;
  }

  private itemPath(projectId: number | string, shortId: string): string {
    return `/api/projects/${segment(projectId)}/notebooks/${segment(shortId)}/`;
  }
}
