// PostHog's error bodies (drf-exceptions-hog): {type, code, detail, attr}.

export interface ErrorBody {
  type: string;
  code: string;
  detail: string;
  attr: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | Record<string, unknown> | null,
    readonly headers: Record<string, string> = {},
  ) {
    super(body && 'detail' in body ? String(body['detail']) : `HTTP ${status}`);
  }
}

const error = (status: number, type: string, code: string, detail: string, attr: string | null = null): ApiError =>
  new ApiError(status, { type, code, detail, attr });

export const notAuthenticated = (): ApiError =>
  error(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');

export const authenticationFailed = (): ApiError =>
  error(401, 'authentication_error', 'authentication_failed', 'Personal API key found in request Authorization header is invalid.');

export const permissionDenied = (detail: string): ApiError => error(403, 'authentication_error', 'permission_denied', detail);

export const notFound = (detail = 'Not found.'): ApiError => error(404, 'invalid_request', 'not_found', detail);

export const methodNotAllowed = (method: string): ApiError =>
  error(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);

export const validation = (detail: string, attr: string | null = null, code = 'invalid'): ApiError =>
  error(400, 'validation_error', code, detail, attr);

export const parseError = (detail: string): ApiError => error(400, 'validation_error', 'parse_error', `JSON parse error - ${detail}`);

export const unsupportedMediaType = (mediaType: string): ApiError =>
  error(415, 'invalid_request', 'unsupported_media_type', `Unsupported media type "${mediaType}" in request.`);

export const conflict = (detail: string): ApiError => error(409, 'server_error', 'conflict', detail);

export const serverError = (): ApiError => error(500, 'server_error', 'error', 'A server error occurred.');

/** DRF's Throttled detail: singular "second" for a wait of exactly one second. */
/** DRF's throttled answer; a string wait is written as given (an injected fault's odd number). */
export function throttled(waitSeconds: number | string, headers: Record<string, string> = {}): ApiError {
  const wait = typeof waitSeconds === 'string' ? waitSeconds : Math.max(1, Math.ceil(waitSeconds));
  const unit = wait === 1 ? 'second' : 'seconds';
  return new ApiError(
    429,
    { type: 'throttled_error', code: 'throttled', detail: `Request was throttled. Expected available in ${wait} ${unit}.`, attr: null },
    headers,
  );
}

export const PERSONAL_KEY_REFUSED = 'This action does not support personal API key access';
