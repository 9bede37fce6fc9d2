/**
 * The hono example's HTTP server around a core: the API, the dashboard beside it, `/metrics` and
 * the probes, over HTTP or HTTPS. `server.ts` builds the core from the environment and listens;
 * the memory-limit test's server program (`conformance-server.ts`) serves the suite's core with it.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { getRequestListener } from '@hono/node-server';
import { latchkeyHono, latchkeyRequestErrors } from '@latchkey/adapter-hono';
import { type Core, type CoreResponse, PROMETHEUS_CONTENT_TYPE, probeResponse } from '@latchkey/core';
import { latchkeyClientError } from '@latchkey/core/node';
import { createDashboard } from '@latchkey/dashboard';
import type { ExampleTls } from '@latchkey/example-shared/tls';
import { Hono, type MiddlewareHandler } from 'hono';

/** The example's server for `core`, not yet listening: HTTPS when `tls` is given. */
export function createHonoServer(core: Core, tls: ExampleTls | null): Server {
  const app = new Hono();
  app.route('/', latchkeyHono(core));
  // The dashboard (Settings > Notifications > Audit Webhooks) at /dashboard, beside the API it calls.
  const dashboard = createDashboard({ apiBasePath: core.basePath, frameAncestor: core.portalFrameAncestor });
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
  // Probes for a load balancer or Kubernetes: unauthenticated, nothing secret in them.
  const probe = (answer: CoreResponse) =>
    new Response(answer.body as string, { status: answer.status, headers: answer.headers });
  app.get('/healthz', () => probe(probeResponse(core.health())));
  app.get('/readyz', async () => probe(probeResponse(await core.ready())));

  // getRequestListener rather than serve(): only it takes an errorHandler, which gives the requests
  // @hono/node-server refuses itself (a Host it cannot build a URL from) our error body.
  const listener = getRequestListener(app.fetch, { errorHandler: latchkeyRequestErrors });
  const server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  // Requests Node's parser refuses (oversized headers, malformed framing) get our error body too.
  server.on('clientError', latchkeyClientError);
  return server;
}
