/**
 * The demo's host app: a tiny page on its own loopback origin (another port than Latchkey's) that
 * embeds the Audit Webhooks portal with `<latchkey-portal>`, as a team's own settings page would.
 * Its server stands for the host's own sign-in: it holds an admin token and mints a portal session
 * (`POST …/portal-sessions`, the token only in the URL's fragment) each time its page asks, for the
 * origin it serves on; when the portal says its session ended, the page mints a fresh one (or, with
 * `?refresh=manual`, offers a button). The page's query picks the session: `read_only=1`,
 * `expires=<seconds>`, `capabilities=<comma-separated>`; and the look: `theme=light|dark`,
 * `accent=<colour>` (the element's `--latchkey-accent`).
 *
 * Env: LATCHKEY_URL (e.g. http://127.0.0.1:3000), LATCHKEY_TOKEN (an owner or admin token),
 * HOST_PORT (the port to serve on; Latchkey must allow `http://127.0.0.1:<port>` in
 * LATCHKEY_PORTAL_ORIGINS). Prints `host page: <url>` once it listens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const env = process.env as Record<string, string>;
const latchkey = env['LATCHKEY_URL']!.replace(/\/+$/, '');
const port = Number(env['HOST_PORT'] ?? '0');
const DEFAULT_CAPABILITIES = 'audit_webhooks:read,audit_webhooks:manage,audit_webhooks:secrets,activity:read';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Acme · Settings · Notifications</title>
    <link rel="icon" href="data:," />
    <script type="module" src="${latchkey}/dashboard/latchkey-portal.js"></script>
    <script type="module" src="/host.js"></script>
    <link rel="stylesheet" href="/host.css" />
  </head>
  <body>
    <header><strong>Acme</strong> · your app</header>
    <main>
      <h1>Settings · Notifications</h1>
      <p id="notice" role="status"></p>
      <button id="again" type="button" hidden>Open a new session</button>
      <latchkey-portal label="Audit Webhooks"></latchkey-portal>
    </main>
  </body>
</html>
`;

// The page's script: mint, frame, and mint again when the portal's session ends.
const HOST_JS = `const portal = document.querySelector('latchkey-portal');
const again = document.querySelector('#again');
const notice = document.querySelector('#notice');
const query = new URLSearchParams(location.search);
// The look the host gives the portal: a theme, and its own accent colour.
if (query.get('theme')) portal.setAttribute('theme', query.get('theme'));
if (query.get('accent')) portal.style.setProperty('--latchkey-accent', query.get('accent'));
async function open() {
  again.hidden = true;
  const answer = await fetch('/portal-url' + location.search, { method: 'POST' });
  if (!answer.ok) { notice.textContent = 'Could not open the portal: ' + answer.status; return; }
  notice.textContent = '';
  portal.url = (await answer.json()).url;
}
portal.addEventListener('expired', () => {
  document.body.dataset.expired = String(Number(document.body.dataset.expired || 0) + 1);
  if (query.get('refresh') === 'manual') { notice.textContent = 'The session ended.'; again.hidden = false; }
  else void open();
});
again.addEventListener('click', () => void open());
void open();
`;

const HOST_CSS = `body { margin: 0; font-family: system-ui, sans-serif; background: #eef0f4; color: #111; }
header { padding: 0.75rem 1.25rem; background: #1d2533; color: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 1rem; }
latchkey-portal { border: 1px solid #c9ced6; border-radius: 8px; overflow: hidden; background: #fff; }
`;

/** Mints a session for this page's origin, with what the page's query asks for. */
async function mint(query: URLSearchParams, origin: string) {
  const body = {
    capabilities: (query.get('capabilities') || DEFAULT_CAPABILITIES).split(','),
    read_only: query.get('read_only') === '1',
    ...(query.get('expires') ? { expires_in_seconds: Number(query.get('expires')) } : {}),
    origin,
  };
  const answer = await fetch(`${latchkey}/api/v2/organizations/acme/portal-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env['LATCHKEY_TOKEN']}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const minted = (await answer.json()) as { url?: string };
  // A path (no public URL configured) is Latchkey's own: the page frames it from there.
  if (minted.url?.startsWith('/')) minted.url = `${latchkey}${minted.url}`;
  return { status: answer.status, minted };
}

function send(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'self'; script-src 'self' ${latchkey}; frame-src ${latchkey}; style-src 'self'; img-src data:`,
  });
  response.end(body);
}

async function answer(request: IncomingMessage, response: ServerResponse, origin: string) {
  const url = new URL(request.url ?? '/', origin);
  if (request.method === 'POST' && url.pathname === '/portal-url') {
    const { status, minted } = await mint(url.searchParams, origin);
    return send(response, status, 'application/json', JSON.stringify(minted));
  }
  if (request.method !== 'GET') return send(response, 405, 'text/plain', 'Method Not Allowed\n');
  if (url.pathname === '/') return send(response, 200, 'text/html; charset=utf-8', PAGE);
  if (url.pathname === '/host.js') return send(response, 200, 'text/javascript', HOST_JS);
  if (url.pathname === '/host.css') return send(response, 200, 'text/css', HOST_CSS);
  return send(response, 404, 'text/plain', 'Not Found\n');
}

const server = createServer((request, response) => {
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  answer(request, response, origin).catch((error: Error) =>
    send(response, 502, 'text/plain', `Latchkey did not answer: ${error.message}\n`),
  );
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`host page: http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
