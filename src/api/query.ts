/** Query values: arrays and objects are sent JSON-serialised, as PostHog expects for properties/select/where. */
export type QueryValue = string | number | boolean | null | undefined | readonly unknown[] | Record<string, unknown>;
export type QueryParams = Record<string, QueryValue>;

export function toSearchParams(params: QueryParams | URLSearchParams | undefined): URLSearchParams {
  if (params instanceof URLSearchParams) {
    return new URLSearchParams(params);
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) {
      continue;
    }
    search.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return search;
}
