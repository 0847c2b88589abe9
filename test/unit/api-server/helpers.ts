// Raw-HTTP helpers for the local API's behaviour tests (deliberately not the extension's client).
import type { LocalApi } from '../../api-server';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON body, or undefined when the body is empty or not JSON */
  json: any;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Sends a request; `key` defaults to the all-access key (null sends no Authorization header). */
export async function call(api: LocalApi, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? api.keys.all : options.key;
  if (key !== null) headers['Authorization'] = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${api.url}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const get = (api: LocalApi, path: string, options?: CallOptions): Promise<Answer> => call(api, 'GET', path, options);

/** A request to the opt-in test-control surface (/_control/), which takes no key. */
export const control = (api: LocalApi, method: string, path: string, body?: unknown): Promise<Answer> =>
  call(api, method, `/_control/${path}`, { key: null, body });

/** The first organization and its first project of the seed ("Hedgebox Inc." / "Hedgebox"). */
export function mainProject(api: LocalApi): { orgId: string; projectId: number } {
  const org = api.store.organizations[0]!;
  return { orgId: org.id, projectId: api.store.projectsOf(org.id)[0]!.id };
}

export const errorBody = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr });
