import type { PostHogClient } from '../api';
import { MissingScopeError, PermissionDeniedError, ProjectScopedKeyError } from '../api';

/** The read scopes the explorer uses, and what a key without them cannot do. */
export const SCOPE_FEATURES: Readonly<Record<string, string>> = {
  'user:read': 'your profile cannot be read',
  'organization:read': 'organizations are listed from your profile, or added by id',
  'project:read': 'projects cannot be listed or opened',
  'notebook:read': 'notebooks cannot be browsed or opened',
  'query:read': 'events cannot be browsed',
};

export interface KeyCheck {
  /** The e-mail of the key's user, when the key may read the profile. */
  readonly account?: string;
  readonly missingScopes: string[];
  /** The key is limited to some projects: PostHog refuses it organization and project lists. */
  readonly limitedToProjects: boolean;
}

/**
 * Checks a key with read-only calls before it is kept: a refused key throws the client's
 * AuthenticationError; a key that works but lacks scopes reports which ones.
 */
export async function checkApiKey(client: PostHogClient, signal?: AbortSignal): Promise<KeyCheck> {
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

  // The first call alone, so that a bad key makes one request, not five.
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
    ]);
  }
  return { account: user?.email, missingScopes: missingScopes.sort(), limitedToProjects };
}
