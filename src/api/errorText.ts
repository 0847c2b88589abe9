import { PostHogError } from './errors';

/** What to tell the user about an error: PostHog's plain words when the client mapped it, else its message. */
export function errorText(error: unknown): string {
  return error instanceof PostHogError ? error.userMessage : error instanceof Error ? error.message : String(error);
}
