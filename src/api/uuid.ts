import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its usual dashed form, e.g. 01234567-89ab-cdef-0123-456789abcdef (any case). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A new random UUID (version 4), e.g. a query run's client_query_id. */
export function newUuid(): string {
  return randomUUID();
}
