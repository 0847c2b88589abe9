/**
 * How documents of the `posthog:` file system tell VS Code they changed. VS Code compares modification
 * times: a document reports strictly increasing ones (each change gives a new etag), and after a save it
 * reports the saved text first, then, a moment later, what PostHog now has, so that the clean editor
 * reloads it (new version, normalised values) while the save itself never looks "modified since".
 */

/** How long after a save the editor keeps the saved text before it reloads what PostHog now has. */
export const RELOAD_AFTER_SAVE_MS = 150;

/** Strictly increasing modification times, each at least the given floor (now, by default). */
export class ModificationClock {
  private last = 0;

  next(floor = Date.now()): number {
    this.last = Math.max(this.last + 1, floor);
    return this.last;
  }
}

/** Runs `reload` (which fires the change) once VS Code has taken the stat that follows a save. */
export function reloadAfterSave(reload: () => void): void {
  setTimeout(reload, RELOAD_AFTER_SAVE_MS);
}
