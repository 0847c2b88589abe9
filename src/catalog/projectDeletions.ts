import { isAbortError, mapConcurrently, type PostHogClient, type ProjectListItem } from '../api';

/** A project PostHog has scheduled for deletion, as reading the project tells (its list entry does not). */
export interface ProjectDeletion {
  /** When the deletion runs (ISO); absent where PostHog deletes at once, without a schedule (older servers). */
  readonly scheduledAt?: string;
  /** PostHog's own answer whether a cancel can still succeed; absent when it did not say. */
  readonly canCancel?: boolean;
}

type DeletionFields = Pick<ProjectListItem, 'is_pending_deletion' | 'deletion_scheduled_at' | 'can_cancel_deletion'>;

/** The deletion a project read from PostHog is pending, or undefined when it is not pending. */
export function deletionOf(project: DeletionFields): ProjectDeletion | undefined {
  if (project.is_pending_deletion !== true) {
    return undefined;
  }
  return {
    ...(project.deletion_scheduled_at ? { scheduledAt: project.deletion_scheduled_at } : {}),
    ...(typeof project.can_cancel_deletion === 'boolean' ? { canCancel: project.can_cancel_deletion } : {}),
  };
}

/**
 * How many projects of an organization the explorer reads to learn which are pending deletion. PostHog's
 * list entries leave the deletion out, so only a read of each project tells. The project endpoints count
 * against a personal key's default buckets (480 a minute, 4,800 an hour, shared with the notebook calls):
 * showing an organization costs its list and at most this many reads, 4 at a time, once until it is
 * refreshed; an organization rarely has more projects (plans allow one or a few). The reads are counted in
 * the key's budget as bulk work and skipped, not delayed, when the key is near PostHog's limits (the project
 * then shows what is known of it). Beyond them the explorer
 * relies on what it knows itself: deletions scheduled or cancelled from this window, and projects read for
 * another reason (their settings).
 */
export const DELETION_READS_PER_ORGANIZATION = 20;
const READ_CONCURRENCY = 4;

/**
 * The deletion state of an organization's projects: read from PostHog for the first ones (a read that
 * fails leaves the project to what is known), from `known` for the others.
 */
export async function readDeletions(
  client: PostHogClient,
  organizationId: string,
  projects: readonly ProjectListItem[],
  known: ReadonlyMap<number, ProjectDeletion | null>,
  signal: AbortSignal,
): Promise<Map<number, ProjectDeletion>> {
  // A project that already carries the fields (read by id, for a key limited to projects) needs no read.
  const toRead = projects.filter((project) => project.is_pending_deletion === undefined).slice(0, DELETION_READS_PER_ORGANIZATION);
  const read = await mapConcurrently(toRead, READ_CONCURRENCY, signal, async (project, aborted) => {
    try {
      return deletionOf(await client.projects.getInBackground(organizationId, project.id, { signal: aborted })) ?? null;
    } catch (error) {
      if (isAbortError(error) || aborted.aborted) {
        throw error;
      }
      return undefined;
    }
  });
  const fresh = new Map(toRead.map((project, index) => [project.id, read[index]]));
  const deletions = new Map<number, ProjectDeletion>();
  for (const project of projects) {
    const fromRead = fresh.get(project.id);
    const state = project.is_pending_deletion !== undefined ? deletionOf(project) : fromRead !== undefined ? fromRead : known.get(project.id);
    if (state) {
      deletions.set(project.id, state);
    }
  }
  return deletions;
}
