/**
 * `@latchkey/dashboard`: the dashboard's single-page app and a handler that serves it on core's
 * request and response types, beside the API. The app talks only to the public API (`/api/v2`).
 *
 * ```ts
 * const dashboard = createDashboard({ apiBasePath: core.basePath });
 * // in the host's router, before its 404:
 * const response = await dashboard.handle({ method, url, headers });
 * if (response) send(response);
 * ```
 */
import { fileURLToPath } from 'node:url';
import type { CoreRequest, CoreResponse } from '@latchkey/core';
import { API_BASE_PLACEHOLDER, type Asset, BUILD_BASE, loadAssets } from './assets.js';
import { embedFrameAncestors, type FrameAncestor, PORTAL_ORIGIN_PLACEHOLDER } from './embed-frame.js';

export type { FrameAncestor } from './embed-frame.js';

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /** Where the dashboard is mounted. Default `/dashboard`. */
  basePath?: string;
  /** Where the Latchkey API is mounted (the core's `basePath`). Default `/api/v2`. */
  apiBasePath?: string;
  /** The built app. Default: the `assets/` folder of this package. */
  assetsDir?: string;
  /**
   * Who may frame the embedded page of a portal session (`{basePath}/embed?session=…`): pass
   * `(id) => core.portalFrameAncestor(id)`. Without it the embedded page may not be framed.
   */
  frameAncestor?: FrameAncestor;
}

/** The dashboard's handler. */
export interface Dashboard {
  basePath: string;
  /**
   * Answers a request for the dashboard: a file of the app, or the app's page for any other path
   * under `basePath` (its routes live in the browser). Null when the path is not the dashboard's,
   * so the host carries on with its own routes.
   */
  handle(request: Pick<CoreRequest, 'method' | 'url' | 'headers'>): Promise<CoreResponse | null>;
  /** The same on web-standard types (Hono, Bun, Deno, workers): null when not the dashboard's. */
  fetch(request: Request): Promise<Response | null>;
}

// The page loads only its own script and style; it talks to the API on the same origin and may not
// be framed (the secret it shows once must not be clickjacked or leaked through a referrer).
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The `<latchkey-portal>` element's script, built beside the app (`vite.config.ts`). */
const ELEMENT_SCRIPT = 'latchkey-portal.js';

/** A module script from another origin is fetched with CORS: the element's is public code. */
const ELEMENT_HEADERS = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

function accepts(headers: CoreRequest['headers'], encoding: string): boolean {
  const value = headers['accept-encoding'];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== encoding) return false;
    return !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
  });
}

function send(request: Pick<CoreRequest, 'method' | 'headers'>, asset: Asset, cache: string): CoreResponse {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    'cache-control': cache,
    etag: asset.etag,
    vary: 'accept-encoding',
  };
  if (request.headers['if-none-match'] === asset.etag) return { status: 304, headers, body: null };
  const gzip = asset.gzip && accepts(request.headers, 'gzip');
  if (gzip) headers['content-encoding'] = 'gzip';
  const body = gzip ? asset.gzip! : asset.body;
  headers['content-length'] = String(body.byteLength);
  return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
}

function plain(status: number, message: string, extra: Record<string, string> = {}): CoreResponse {
  return {
    status,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    },
    body: `${message}\n`,
  };
}

/**
 * The embedded page: the app's page with the origin that may frame it written in (the page posts
 * to it), framed only by that origin, never stored (its policy is the session's), and then without
 * `X-Frame-Options`, which would forbid every frame.
 */
async function embedPage(
  request: Pick<CoreRequest, 'method' | 'url' | 'headers'>,
  page: Asset,
  frameAncestor: FrameAncestor | undefined,
): Promise<CoreResponse> {
  const ancestors = await embedFrameAncestors(request.url, frameAncestor);
  const origin = ancestors === "'none'" ? '' : ancestors;
  const text = Buffer.from(page.body).toString().replaceAll(PORTAL_ORIGIN_PLACEHOLDER, origin);
  // Written for this request: no gzip copy, no ETag that another session's page could match.
  const body = Buffer.from(text);
  const { 'if-none-match': _, ...headers } = request.headers;
  const answer = send({ method: request.method, headers }, { ...page, body, gzip: null }, 'no-store');
  if (!origin) return answer;
  const { 'x-frame-options': __, ...rest } = answer.headers;
  const policy = SECURITY_HEADERS['content-security-policy'].replace(
    "frame-ancestors 'none'",
    `frame-ancestors ${ancestors}`,
  );
  return { ...answer, headers: { ...rest, 'content-security-policy': policy } };
}

/** Creates the dashboard's handler; the app's files are read once, here. */
export function createDashboard(options: DashboardOptions = {}): Dashboard {
  const basePath = trimSlash(options.basePath ?? '/dashboard');
  const apiBasePath = trimSlash(options.apiBasePath ?? '/api/v2');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath))
    throw new TypeError(`Invalid dashboard basePath "${basePath}".`);
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(apiBasePath))
    throw new TypeError(`Invalid apiBasePath "${apiBasePath}".`);
  const dir = options.assetsDir ?? fileURLToPath(new URL('../assets/', import.meta.url));
  const assets = loadAssets(dir, { [BUILD_BASE]: `${basePath}/`, [API_BASE_PLACEHOLDER]: apiBasePath });
  const page = assets?.get('index.html');

  const dashboard: Omit<Dashboard, 'fetch'> = {
    basePath,
    async handle(request) {
      const path = request.url.split('?', 1)[0]!;
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return null;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      }
      if (!assets || !page) {
        return plain(503, 'The dashboard is not built: run `pnpm --filter @latchkey/dashboard build`.');
      }
      const rest = path.slice(basePath.length + 1);
      // The element for host pages, which load it from their own origin's pages: any origin may.
      const element = rest === ELEMENT_SCRIPT ? assets.get(ELEMENT_SCRIPT) : undefined;
      if (element) {
        const answer = send(request, element, 'no-cache');
        return { ...answer, headers: { ...answer.headers, ...ELEMENT_HEADERS } };
      }
      const asset = rest.startsWith('assets/') ? assets.get(rest) : undefined;
      if (asset) return send(request, asset, 'public, max-age=31536000, immutable');
      if (rest.startsWith('assets/') || /\.[a-z0-9]+$/i.test(rest)) return plain(404, 'Not Found');
      if (rest === 'embed') return embedPage(request, page, options.frameAncestor);
      // Any other path is a route of the app: its page, never cached, so a new build shows at once.
      return send(request, page, 'no-cache');
    },
  };
  return {
    ...dashboard,
    async fetch(request) {
      const url = new URL(request.url);
      const headers: CoreRequest['headers'] = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const answer = await dashboard.handle({
        method: request.method,
        url: url.pathname + url.search,
        headers,
      });
      if (!answer) return null;
      return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
    },
  };
}
