// Suggestions for the events panel's fields: event names and property values. vscode-free.
// events/values allows 60 requests a minute (300 an hour) and, with a personal API key, needs
// `event_name`: property values are asked for the event the user typed, answers are cached, and
// requests are spaced so that a fast typist stays under the limit.
import { type Event, type EventValues, type EventValuesQuery, realSleep, type Sleep } from '../api';

/** PostHog's own event names: events/values with key=custom_event lists only the others. */
export const BUILT_IN_EVENTS = [
  '$pageview',
  '$pageleave',
  '$autocapture',
  '$identify',
  '$screen',
  '$set',
  '$groupidentify',
  '$feature_flag_called',
  '$rageclick',
  '$exception',
  '$web_vitals',
  '$opt_in',
];

export interface SuggestRequest {
  field: 'event' | 'propertyValue';
  text: string;
  key?: string;
  propertyType?: 'event' | 'person';
  /** What the event field holds now. */
  eventName?: string;
}

/** Why there is nothing to ask PostHog yet; the panel words it. */
export type SuggestNote = 'needEventName' | 'needKey' | 'personProperty';

export interface SuggestAnswer {
  values: string[];
  note?: SuggestNote;
  /** The request failed; `values` holds what is known without it. */
  error?: unknown;
}

export type ValuesCall = (query: EventValuesQuery, signal: AbortSignal) => Promise<EventValues>;

export interface SuggestionOptions {
  now?: () => number;
  sleep?: Sleep;
  /** Least time between two requests (default 1.1 s: under 60 a minute). */
  minIntervalMs?: number;
  /** How long an answer is reused (default 5 minutes). */
  ttlMs?: number;
}

const MAX_SUGGESTIONS = 20;
const MAX_SEEN_NAMES = 2_000;
const MAX_CACHED = 300;

export class EventSuggestions {
  private readonly seenNames = new Set<string>();
  private readonly cache = new Map<string, { values: string[]; at: number }>();
  private lastRequestAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly minIntervalMs: number;
  private readonly ttlMs: number;

  constructor(
    private readonly values: ValuesCall,
    options: SuggestionOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.minIntervalMs = options.minIntervalMs ?? 1_100;
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
  }

  /** Event names seen in loaded events are suggested too (no request needed). */
  learn(events: readonly Pick<Event, 'event'>[]): void {
    for (const { event } of events) {
      if (this.seenNames.size >= MAX_SEEN_NAMES) {
        return;
      }
      this.seenNames.add(event);
    }
  }

  /** Aborting `signal` (a newer request came) stops the wait or the request; it then rejects. */
  async suggest(request: SuggestRequest, signal: AbortSignal): Promise<SuggestAnswer> {
    return request.field === 'event' ? this.eventNames(request.text.trim(), signal) : this.propertyValues(request, signal);
  }

  /**
   * Names seen in loaded events, PostHog's built-in names, and the custom event names PostHog lists
   * (key=custom_event). A personal API key must send `event_name` even there, and PostHog ignores it
   * (and `value`) in that answer: the typed text is sent, and the full list is cached and filtered here.
   */
  private async eventNames(text: string, signal: AbortSignal): Promise<SuggestAnswer> {
    const known = () => matching([...this.seenNames, ...BUILT_IN_EVENTS, ...(this.cached('custom_event') ?? [])], text);
    if (!text || this.cached('custom_event')) {
      return { values: known() };
    }
    try {
      await this.fetch('custom_event', { key: 'custom_event', event_name: text }, signal);
      return { values: known() };
    } catch (error) {
      if (signal.aborted) {
        throw error;
      }
      return { values: known(), error };
    }
  }

  private async propertyValues(request: SuggestRequest, signal: AbortSignal): Promise<SuggestAnswer> {
    if (request.propertyType === 'person') {
      return { values: [], note: 'personProperty' };
    }
    const key = request.key?.trim();
    if (!key) {
      return { values: [], note: 'needKey' };
    }
    const eventName = request.eventName?.trim();
    if (!eventName) {
      return { values: [], note: 'needEventName' };
    }
    const text = request.text.trim();
    const cacheKey = JSON.stringify([eventName, key, text]);
    try {
      const values = this.cached(cacheKey) ?? (await this.fetch(cacheKey, { key, event_name: eventName, ...(text ? { value: text } : {}) }, signal));
      return { values: values.slice(0, MAX_SUGGESTIONS) };
    } catch (error) {
      if (signal.aborted) {
        throw error;
      }
      return { values: [], error };
    }
  }

  private cached(cacheKey: string): string[] | undefined {
    const entry = this.cache.get(cacheKey);
    return entry && this.now() - entry.at < this.ttlMs ? entry.values : undefined;
  }

  /** Waits for its turn (requests are spaced by minIntervalMs), asks, and caches a complete answer. */
  private async fetch(cacheKey: string, query: EventValuesQuery, signal: AbortSignal): Promise<string[]> {
    const wait = this.lastRequestAt + this.minIntervalMs - this.now();
    if (wait > 0) {
      await this.sleep(wait, signal);
    }
    this.lastRequestAt = this.now();
    const answer = await this.values(query, signal);
    const values = [...new Set(answer.results.map((entry) => entry.name).filter((name) => name !== undefined && name !== null).map(asText))];
    if (!answer.refreshing) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, { values, at: this.now() });
      if (this.cache.size > MAX_CACHED) {
        this.cache.delete(this.cache.keys().next().value!);
      }
    }
    return values;
  }
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function matching(names: readonly string[], text: string): string[] {
  const needle = text.toLowerCase();
  const unique = [...new Set(names)].filter((name) => name.toLowerCase().includes(needle));
  // Names that start with the text first, then alphabetical.
  unique.sort((a, b) => Number(!a.toLowerCase().startsWith(needle)) - Number(!b.toLowerCase().startsWith(needle)) || a.localeCompare(b));
  return unique.slice(0, MAX_SUGGESTIONS);
}
