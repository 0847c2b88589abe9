// PostHog's access control on notebooks (posthog/rbac: AccessControlViewSetMixin, UserAccessControlSerializerMixin):
// each user has an access level per notebook, serialized as `user_access_level`. The list leaves out notebooks
// the user cannot see, reads need "viewer" and writes "editor", else 403 "You do not have <level> access to
// this resource.". Without a level set here a user is an editor, as where access control is not used.
import type { Notebook, NotebookAccessLevel } from './model';
import { permissionDenied } from './errors';

const RANK: Record<NotebookAccessLevel, number> = { none: 0, viewer: 1, editor: 2, manager: 3 };

export function accessLevelOf(notebook: Notebook, userId: number): NotebookAccessLevel {
  return notebook.accessLevels?.[userId] ?? 'editor';
}

/** Gives `userId` this level on the notebook (what an admin does in PostHog's access control). */
export function setNotebookAccess(notebook: Notebook, userId: number, level: NotebookAccessLevel): void {
  notebook.accessLevels = { ...notebook.accessLevels, [userId]: level };
}

export function canSee(notebook: Notebook, userId: number): boolean {
  return RANK[accessLevelOf(notebook, userId)] >= RANK.viewer;
}

/** Throws PostHog's 403 unless `userId` has at least `needed` on the notebook. */
export function requireNotebookAccess(notebook: Notebook, userId: number, needed: 'viewer' | 'editor'): void {
  if (RANK[accessLevelOf(notebook, userId)] < RANK[needed]) {
    throw permissionDenied(`You do not have ${needed} access to this resource.`);
  }
}

export function isAccessLevel(value: unknown): value is NotebookAccessLevel {
  return typeof value === 'string' && value in RANK;
}
