import type { Notebook } from '../../api';
import { describeUser } from '../model/notebookDocument';

type Revision = Pick<Notebook, 'version' | 'last_modified_at'>;

/**
 * Whether PostHog itself made `latest` out of `known`: a newer version whose last_modified_at did not move.
 * PostHog's migration of legacy notebooks to Markdown does that (a new version, last_modified_* kept, so
 * last_modified_by names the previous editor, who did not make this change).
 */
export function isServerRevision(known: Revision | undefined, latest: Revision): boolean {
  return known !== undefined && latest.version > known.version && latest.last_modified_at === known.last_modified_at;
}

/** Who made PostHog's `latest` version out of the `known` one, as one safe line: "PostHog" for its own revision. */
export function changeAuthor(known: Revision | undefined, latest: Notebook): string | null {
  return isServerRevision(known, latest) ? 'PostHog' : describeUser(latest.last_modified_by);
}
