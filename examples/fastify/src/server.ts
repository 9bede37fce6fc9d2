/**
 * Latchkey served by Fastify, run from source: `pnpm --dir examples/fastify start`.
 *
 * Environment: `PORT` (default 3000, `0` picks a free port), `LATCHKEY_BOOTSTRAP_ADMIN_TOKEN` (when
 * set, organization `acme` exists with an owner `admin` whose API token is that value) and
 * `LATCHKEY_STORE` (only `memory` for now).
 */
import { latchkeyFastify, latchkeyFrameworkErrors } from '@latchkey/adapter-fastify';
import { createCore } from '@latchkey/core';
import Fastify from 'fastify';

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

// frameworkErrors: malformed URLs under /api/v2 get Latchkey's error body too.
const app = Fastify({ frameworkErrors: latchkeyFrameworkErrors(core) });
await app.register(latchkeyFastify, { core });

try {
  const url = await app.listen({ port, host: '127.0.0.1' });
  console.log(`listening on ${url}`);
} catch (error) {
  fail(`Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Finish what is in flight, then exit; a client that holds on is cut off after 5 s.
    if (stopping) return;
    stopping = true;
    void app.close().then(() => process.exit(0));
    // Keep-alive connections are closed as soon as their last response is out.
    setInterval(() => app.server.closeIdleConnections(), 50).unref();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
