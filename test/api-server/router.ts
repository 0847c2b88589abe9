// Route table: path patterns with :params, per-method actions and the scope each one requires.
import type { Ctx, Reply } from './http';
import type { ThrottleBucket } from './throttle';

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface Action {
  /**
   * Scope the action requires. `null` marks a custom action that declares none: PostHog refuses it to
   * personal API keys; with refusePersonalKeyActions off, `allowedScope` is required instead.
   */
  scope: string | null;
  allowedScope?: string;
  /** The view checks no scope at all (PostHog's personal_api_keys @current retrieve). */
  noScope?: boolean;
  handler: Handler;
}

/** A route's throttle bucket, or how to pick it from the request (the Query API's depends on the body's kind). */
export type Throttle = ThrottleBucket | ((method: string, body: unknown) => ThrottleBucket);

export interface Route {
  segments: string[];
  methods: Partial<Record<string, Action>>;
  throttle: Throttle;
  /** Part of an API older servers lack: 404 while that store setting is off (the Query API, property definitions). */
  onlyWith?: 'queryApi' | 'propertyDefinitionsApi';
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export function route(path: string, methods: Route['methods'], throttle: Throttle = 'default'): Route {
  return { segments: path.split('/').filter(Boolean), methods, throttle };
}

/** Matches with or without a trailing slash; literal segments win over :params (".../activity" before ".../:shortId"). */
export function matchRoute(routes: readonly Route[], path: string): Match | undefined {
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  let best: Match | undefined;
  let bestLiterals = -1;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const ok = route.segments.every((segment, i) => {
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = parts[i]!;
        return true;
      }
      literals++;
      return segment === parts[i];
    });
    if (ok && literals > bestLiterals) {
      best = { route, params };
      bestLiterals = literals;
    }
  }
  return best;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
