import type { PersonalApiKey, PostHogClient } from '../api';
import {
  MethodNotAllowedError,
  MissingScopeError,
  NotFoundError,
  PermissionDeniedError,
  PersonalApiKeyNotSupportedError,
  ProjectScopedKeyError,
} from '../api';

/** The read scopes the explorer uses, and what a key without them cannot do. */
export const SCOPE_FEATURES: Readonly<Record<string, string>> = {
  'user:read': 'your profile cannot be read',
  'organization:read': 'organizations are listed from your profile, or added by id',
  'project:read': 'projects cannot be listed or opened',
  'notebook:read': 'notebooks cannot be browsed or opened',
  'query:read': 'events cannot be browsed',
  'property_definition:read': 'HogQL completion suggests property names from recent events only',
};

export interface KeyCheck {
  /** The e-mail of the key's user, when the key may read the profile. */
  readonly account?: string;
  readonly missingScopes: string[];
  /** The key is limited to some projects: PostHog refuses it organization and project lists. */
  readonly limitedToProjects: boolean;
  /** The projects it is limited to, when PostHog said (from the key itself). */
  readonly scopedProjects: number[];
  /** Where the scopes came from: the key itself (GET @current), or trying read calls (older servers). */
  readonly learnedFrom: 'key' | 'probes';
}

/**
 * Checks a key before it is kept: a refused key throws the client's AuthenticationError; a key that works
 * but lacks scopes reports which ones. PostHog describes the key itself (GET /api/personal_api_keys/@current/):
 * its scopes and projects, then the profile for the account name. No events request is spent (those have a
 * tight limit per key). Servers without that endpoint (404, or 403 where it needs a scope) are probed
 * with one read-only call per scope, as before.
 */
export async function checkApiKey(client: PostHogClient, signal?: AbortSignal): Promise<KeyCheck> {
  const key = await currentKey(client, signal);
  return key ? fromKey(client, key, signal) : probe(client, signal);
}

/** The key as PostHog describes it, or undefined when this server cannot say. A bad key throws (401). */
async function currentKey(client: PostHogClient, signal?: AbortSignal): Promise<PersonalApiKey | undefined> {
  try {
    return await client.personalApiKeys.current({ signal });
  } catch (error) {
    const unknownHere =
      error instanceof NotFoundError ||
      error instanceof MissingScopeError ||
      error instanceof PermissionDeniedError ||
      error instanceof PersonalApiKeyNotSupportedError ||
      error instanceof MethodNotAllowedError;
    if (unknownHere) {
      return undefined;
    }
    throw error;
  }
}

/** A write scope grants read; `*` grants all; no scopes (null or []) grant nothing. */
function grants(scopes: readonly string[], scope: string): boolean {
  return scopes.includes('*') || scopes.includes(scope) || (scope.endsWith(':read') && scopes.includes(scope.replace(/:read$/, ':write')));
}

async function fromKey(client: PostHogClient, key: PersonalApiKey, signal?: AbortSignal): Promise<KeyCheck> {
  const scopes = key.scopes ?? [];
  const missingScopes = Object.keys(SCOPE_FEATURES)
    .filter((scope) => !grants(scopes, scope))
    .sort();
  const user = grants(scopes, 'user:read') ? await client.users.me({ signal }) : undefined;
  const scopedProjects = key.scoped_teams ?? [];
  return { account: user?.email, missingScopes, limitedToProjects: scopedProjects.length > 0, scopedProjects, learnedFrom: 'key' };
}

/** Older servers: one read-only call per scope, the events one through the key's budget. */
async function probe(client: PostHogClient, signal?: AbortSignal): Promise<KeyCheck> {
  const missingScopes: string[] = [];
  const call = { signal };
  const missing = async <T>(scope: string, request: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof MissingScopeError) {
        missingScopes.push(scope);
        return undefined;
      }
      throw error;
    }
  };

  // The first call alone, so that a bad key makes one request, not six.
  const user = await missing('user:read', () => client.users.me(call));
  let limitedToProjects = false;
  const unlessLimited = async <T>(request: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ProjectScopedKeyError) {
        limitedToProjects = true;
        return undefined;
      }
      throw error;
    }
  };
  const [, projects] = await Promise.all([
    missing('organization:read', () => unlessLimited(() => client.organizations.list({ limit: 1 }, call))),
    missing('project:read', () => unlessLimited(() => client.projects.listAccessible({ limit: 1 }, call))),
  ]);
  const projectId = projects?.results[0]?.id ?? user?.team?.id;
  if (projectId !== undefined) {
    // A key limited to other projects than the user's current one cannot be checked there.
    const onProject = async <T>(scope: string, request: () => Promise<T>) => {
      try {
        return await missing(scope, request);
      } catch (error) {
        if (limitedToProjects && error instanceof PermissionDeniedError) {
          return undefined;
        }
        throw error;
      }
    };
    await Promise.all([
      onProject('notebook:read', () => client.notebooks.list(projectId, { limit: 1 }, call)),
      onProject('query:read', () => client.events.list(projectId, { limit: 1 }, call)),
      onProject('property_definition:read', () => unlessMissing(() => client.propertyDefinitions.list(projectId, { type: 'event', limit: 1 }, call))),
    ]);
  }
  return { account: user?.email, missingScopes: missingScopes.sort(), limitedToProjects, scopedProjects: [], learnedFrom: 'probes' };
}

/** A server older than the endpoint (404) lacks the feature, not the scope: completion falls back the same way. */
async function unlessMissing<T>(request: () => Promise<T>): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof NotFoundError) {
      return undefined;
    }
    throw error;
  }
}
