/** Latchkey served by Hono on Node, run from source: `pnpm --dir examples/hono start`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { latchkeyHono, latchkeyRequestErrors } from '@latchkey/adapter-hono';
import { PROMETHEUS_CONTENT_TYPE } from '@latchkey/core';
import { latchkeyClientError } from '@latchkey/core/node';
import { createDashboard } from '@latchkey/dashboard';
import { Hono, type MiddlewareHandler } from 'hono';
import { createExampleCore, fail, stopOnSignals } from '../../example-env.js';

const { core, port } = await createExampleCore();

const app = new Hono();
app.route('/', latchkeyHono(core));
// The dashboard (Settings > Notifications > Audit Webhooks) at /dashboard, beside the API it calls.
const dashboard = createDashboard({ apiBasePath: core.basePath });
const serveDashboard: MiddlewareHandler = async (c, next) => {
  const answer = await dashboard.fetch(c.req.raw);
  if (answer) return answer;
  await next();
};
app.use(dashboard.basePath, serveDashboard);
app.use(`${dashboard.basePath}/*`, serveDashboard);
// Audit webhook delivery metrics for Prometheus (this example listens on 127.0.0.1 only).
app.get('/metrics', async (c) =>
  c.body(await core.metricsText(), 200, { 'content-type': PROMETHEUS_CONTENT_TYPE }),
);

// getRequestListener rather than serve(): only it takes an errorHandler, which gives the requests
// @hono/node-server refuses itself (a Host it cannot build a URL from) our error body.
const server = createServer(getRequestListener(app.fetch, { errorHandler: latchkeyRequestErrors }));
// Requests Node's parser refuses (oversized headers, malformed framing) get our error body too.
server.on('clientError', latchkeyClientError);
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
server.on('error', (error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));
stopOnSignals(server, () => new Promise((resolve) => server.close(resolve)), core);
