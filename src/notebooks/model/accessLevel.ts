/**
 * A notebook's `user_access_level` under PostHog's access control: "none", "viewer", "editor" or "manager".
 * Below "editor" PostHog refuses every write (403 "You do not have editor access to this resource."), so such
 * a notebook opens read-only and nothing is sent. Servers without the field (or levels this extension does
 * not know) leave the notebook editable: PostHog's answer to a save still decides.
 */
export function isViewOnly(level: string | null | undefined): boolean {
  return level === 'viewer' || level === 'none';
}
