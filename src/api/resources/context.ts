import type * as z from 'zod/mini';
import { UnsafePathError } from '../errors';
import type { KeyBudget } from '../budget';
import { isDotSegment, type Transport } from '../http';
import { nextPageRequest, PageSource } from '../paging';
import type { QueryParams } from '../query';
import type { Paginated } from '../schemas';

/** What every resource group needs from its client. */
export interface ResourceContext {
  transport: Transport;
  baseUrl: string;
  pageConcurrency: number;
  /** The request budget of this client's key (the transport sends every request through it). */
  budget: KeyBudget;
}

/**
 * A path segment from a caller-supplied (or server-supplied) id, so "../" or "?" cannot change the request
 * target: "/" and "?" are encoded, and ids that encoding leaves as a dot segment ("." and "..", which URLs
 * resolve to the parent) or empty are refused (UnsafePathError).
 */
export function segment(value: string | number): string {
  const text = String(value);
  if (isDotSegment(text) || text === '') {
    throw new UnsafePathError(text);
  }
  return encodeURIComponent(text);
}

/** Page source for a limit/offset list at `path`, keeping the caller's filters on every page. */
export function listSource<T>(
  context: ResourceContext,
  path: string,
  filters: QueryParams,
  schema: z.ZodMiniType<Paginated<T>>,
): PageSource<T> {
  const { transport } = context;
  return {
    endpoint: `GET ${path}`,
    byOffset: (offset, limit, signal) =>
      transport.json({ method: 'GET', path, query: { ...filters, limit, offset } }, schema, { signal }),
    byNextUrl: (next, signal) => transport.json(nextPageRequest(next, context.baseUrl, `GET ${path}`), schema, { signal }),
  };
}

/** Splits `limit`/`offset` from the other filters of a list call. */
export function splitPaging<F extends { limit?: number; offset?: number }>(
  filters: F | undefined,
): { paging: { limit?: number; offset?: number }; rest: Omit<F, 'limit' | 'offset'> } {
  const { limit, offset, ...rest } = filters ?? ({} as F);
  return { paging: { limit, offset }, rest };
}
