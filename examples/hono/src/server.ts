/**
 * Latchkey served by Hono on Node, run from source: `pnpm --dir examples/hono start`.
 *
 * Environment: `PORT` (default 3000, `0` picks a free port), `LATCHKEY_BOOTSTRAP_ADMIN_TOKEN` (when
 * set, organization `acme` exists with an owner `admin` whose API token is that value) and
 * `LATCHKEY_STORE` (only `memory` for now).
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { latchkeyHono } from '@latchkey/adapter-hono';
import { createCore } from '@latchkey/core';
import { Hono } from 'hono';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const port = Number(process.env['PORT'] || '3000');
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  fail(`PORT must be an integer from 0 to 65535, got "${process.env['PORT']}".`);
}
const store = process.env['LATCHKEY_STORE'] || 'memory';
if (store !== 'memory')
  fail(`LATCHKEY_STORE="${store}" is not supported: the only store available is "memory".`);
const token = process.env['LATCHKEY_BOOTSTRAP_ADMIN_TOKEN'];
if (token !== undefined && !/^[A-Za-z0-9_-]{1,200}$/.test(token)) {
  fail('LATCHKEY_BOOTSTRAP_ADMIN_TOKEN may only contain A-Z, a-z, 0-9, "_" and "-" (e.g. lk_ + base64url).');
}

const core = createCore();
if (token) await core.bootstrap({ organization: 'acme', user: 'admin', token });

const app = new Hono();
app.route('/', latchkeyHono(core));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
}) as Server;
server.on('error', (error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Finish what is in flight, then exit; a client that holds on is cut off after 5 s.
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(0));
    // Keep-alive connections are closed as soon as their last response is out.
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
