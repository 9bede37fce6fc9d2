/**
 * The dashboard's only way to the server: the public API on the same origin, with the API token
 * kept in session storage (gone when the tab closes) or, without one, the host's own cookies.
 */
const TOKEN_KEY = 'latchkey.token';

function meta(name: string, fallback: string): string {
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
  return value && !value.startsWith('__') ? value : fallback;
}

/** Where the API is mounted, from the page the server sent. */
export const API_BASE = meta('latchkey-api', '/api/v2').replace(/\/$/, '');

/** An error answer of the API (`{error: {code, message, status}}`) or of the network. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (private mode): the session lasts until the page reloads.
  }
}

let currentToken: string | null = storedToken();

let onUnauthorized: (() => void) | null = null;

/** Calls `handler` whenever the API answers 401 (the embedded page: its session ended). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/** Uses `token` for the following calls (null: the host's cookies). */
export function setApiToken(token: string | null): void {
  currentToken = token;
}

function detailOf(body: unknown): string | null {
  const details = (body as { error?: { details?: { path?: string; message?: string }[] } })?.error?.details;
  const first = details?.[0];
  return first?.message ? `${first.path ? `${first.path}: ` : ''}${first.message}` : null;
}

/** The headers of an API call that accepts `accept`, with the token when there is one. */
export function authHeaders(accept: string, token = currentToken): Record<string, string> {
  const headers: Record<string, string> = { accept };
  if (token) headers['authorization'] = `Bearer ${token}`;
  return headers;
}

/** Calls the API; resolves with the JSON body of a 2xx answer, rejects with an {@link ApiError}. */
export async function api<T>(method: string, path: string, body?: unknown, token = currentToken): Promise<T> {
  const headers = authHeaders('application/json', token);
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(
      0,
      'network_error',
      'The server could not be reached. Check your connection and retry.',
    );
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    if (response.status === 401) onUnauthorized?.();
    const error = (json as { error?: { code?: string; message?: string } } | null)?.error;
    const detail = detailOf(json);
    throw new ApiError(
      response.status,
      error?.code ?? 'http_error',
      [error?.message ?? `The server answered ${response.status}.`, detail].filter(Boolean).join(' '),
    );
  }
  return json as T;
}

/** Path segment, escaped. */
export const seg = (value: string) => encodeURIComponent(value);
