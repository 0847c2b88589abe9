import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import {
  errorText,
  EventsQueryResponseSchema,
  HogQLQueryResponseSchema,
  type KeyBudget,
  type QueryNode,
  type RefreshMode,
  TrendsQueryResponseSchema,
} from '../api';
import { insightUrl, notebookUrl } from '../catalog';
import { Emitter } from '../common/emitter';
import { oneSafeLine } from '../common/text';
import type { ConnectionManager } from '../connections';
import { Disposable } from '../workbench/disposable';
import type { QueryCard } from './cards';
import type { QueryTarget } from './queryDocuments';
import type { ResultSection, ResultsTarget, ResultsView } from '../results';
import { QueryRunController, type RunChange, type RunState } from './runController';

/**
 * The refresh modes, from PostHog's cache table (posthog-behaviour.md, "Request body"):
 * - showing a card's result (Run All, and the first Run of a card): `async_except_on_cache_miss`. A fresh
 *   cached result comes back as it is, without recomputing (running a notebook again costs ClickHouse nothing);
 *   a stale one is recomputed as an async run, which is polled and can be cancelled; a miss is computed within
 *   the one POST (one request of the budget however long it runs, no polls).
 * - running a card again that already shows a result (the user asks for a fresh one): `force_async`. PostHog
 *   recomputes whatever its cache holds, as an async run: polled, cancellable at any moment, and given
 *   PostHog's longer async time budget rather than the personal-key API limit that a blocking run meets.
 */
export const SHOW_REFRESH: RefreshMode = 'async_except_on_cache_miss';
export const RERUN_REFRESH: RefreshMode = 'force_async';

/** What a run needs to know of where a card lives. */
export interface RunPlace {
  readonly uri: vscode.Uri;
  /** The Results panel's name for the document. */
  readonly title: string;
  readonly target: QueryTarget;
  /** The notebook's short id, for the web app's link. */
  readonly notebookShortId?: string;
}

/** A query to run: a notebook card, or a HogQL document (or its selection) as one card. */
export interface RunItem {
  readonly id: string;
  readonly label: string;
  readonly query: QueryNode;
  readonly savedInsight?: string;
}

/** Kinds the client has no schema for: any JSON object (the Results view shows what it can faithfully). */
const ANY_RESPONSE = z.looseObject({});

/** The response schema for an inner query's kind (the validated response the Results view reads). */
function schemaFor(kind: string): z.ZodMiniType {
  switch (kind) {
    case 'HogQLQuery':
      return HogQLQueryResponseSchema;
    case 'EventsQuery':
      return EventsQueryResponseSchema;
    case 'TrendsQuery':
      return TrendsQueryResponseSchema;
    default:
      return ANY_RESPONSE;
  }
}

/**
 * Runs cards through the connection's client and shows each run's state in the Results view. The notebook's
 * text is only read: running never edits, saves or writes results into it.
 */
export class QueryRunner extends Disposable {
  readonly runs: QueryRunController;
  private readonly places = new Map<string, { place: RunPlace; section: ResultSection }>();
  private readonly budgetChanged = this._register(new Emitter<void>());
  /** A run went out: the HogQL budget left may have changed. */
  readonly onDidSpendBudget = this.budgetChanged.event;

  constructor(
    private readonly connections: Pick<ConnectionManager, 'session'>,
    private readonly results: ResultsView,
    private readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>,
  ) {
    super();
    this.runs = new QueryRunController({ now: Date.now, newId: randomUUID, describe: (error) => oneSafeLine(errorText(error), 300) });
    this._register({ dispose: () => this.runs.dispose() });
    this._register(this.runs.onDidChange((change) => this.showChange(change)));
    this._register(results.onDidRequestCancel(({ uri, sectionId }) => this.runs.cancel({ documentUri: uri, cardId: sectionId })));
  }

  /** Runs one item to its end; its state (never throws). `bulk`: part of Run All. */
  async run(place: RunPlace, item: RunItem, options: { bulk?: boolean } = {}): Promise<RunState> {
    const session = await this.connections.session(place.target.connectionId);
    const key = { documentUri: place.uri.toString(), cardId: item.id };
    const webUrl = session && this.webUrlOf(session.connection.baseUrl, place, item);
    this.places.set(`${key.documentUri}\n${key.cardId}`, { place, section: { id: item.id, label: item.label, queryKind: item.query.kind, ...(webUrl ? { webUrl } : {}) } });
    if (!session) {
      return this.fail(key, vscode.l10n.t('Not signed in to this PostHog connection ({0}). Sign in, then run it again.', place.target.connectionId));
    }
    const refresh = this.runs.stateOf(key)?.state === 'done' && !options.bulk ? RERUN_REFRESH : SHOW_REFRESH;
    const { projectId } = place.target;
    this.log.info(`Query ${item.query.kind} of ${place.uri.toString()} (${item.id}): refresh ${refresh}`);
    const state = await this.runs.run(key, {
      query: item.query,
      refresh,
      priority: options.bulk ? 'bulk' : 'interactive',
      execute: (query, runOptions) => {
        queueMicrotask(() => this.budgetChanged.fire());
        return session.client.queries.run(projectId, query, schemaFor(query.kind), runOptions);
      },
    });
    this.budgetChanged.fire();
    return state;
  }

  /** The key's budget of a connection (for the HogQL queries left), if signed in. */
  async budgetOf(connectionId: string): Promise<KeyBudget | undefined> {
    return (await this.connections.session(connectionId))?.client.queries.budget;
  }

  webUrlOf(baseUrl: string, place: RunPlace, item: Pick<RunItem, 'savedInsight'> | Pick<QueryCard, 'savedInsight'>): string | undefined {
    const { projectId } = place.target;
    if (item.savedInsight) {
      return insightUrl(baseUrl, projectId, item.savedInsight);
    }
    return place.notebookShortId ? notebookUrl(baseUrl, projectId, place.notebookShortId) : undefined;
  }

  private fail(key: { documentUri: string; cardId: string }, message: string): RunState {
    const state: RunState = { state: 'failed', message };
    this.showChange({ ...key, state });
    return state;
  }

  private showChange(change: RunChange): void {
    const shown = this.places.get(`${change.documentUri}\n${change.cardId}`);
    if (!shown) {
      return;
    }
    const target: ResultsTarget = { uri: shown.place.uri, title: shown.place.title };
    const { state } = change;
    this.results.show(target, shown.section, state.state === 'done' ? { state: 'done', response: state.response, durationMs: state.durationMs } : state.state === 'running' ? { state: 'running', startedAt: state.startedAt } : state);
  }
}
