// Checking a message that crossed between a webview and the extension, for both sides of every panel.
// zod/mini: the same checks in a fraction of a webview bundle.
import type * as z from 'zod/mini';

export type ParseResult<T> = { ok: true; message: T } | { ok: false; problem: string };

/** The message as `schema` reads it, or the first problem found, fit for a log line. */
export function parseMessage<T>(schema: z.ZodMiniType<T>, data: unknown): ParseResult<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) {
    return { ok: true, message: parsed.data };
  }
  const issue = parsed.error.issues[0];
  return { ok: false, problem: issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid message' };
}
