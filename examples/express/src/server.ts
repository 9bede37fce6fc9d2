/** Latchkey served by Express: `pnpm --dir examples/express start` (built, then run with node). */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { latchkeyExpress } from '@latchkey/adapter-express';
import { PROMETHEUS_CONTENT_TYPE, probeResponse } from '@latchkey/core';
import { latchkeyClientError, sendCoreResponse } from '@latchkey/core/node';
import { createDashboard } from '@latchkey/dashboard';
import { createExampleCore, fail, stopOnSignals } from '@latchkey/example-shared/env';
import { listeningLine } from '@latchkey/example-shared/tls';
import express from 'express';

const { core, port, tls } = await createExampleCore();

const app = express();
// Before any body parser: pushes are verified over the raw bytes.
app.use(latchkeyExpress(core));
// The dashboard (Settings > Notifications > Audit Webhooks) at /dashboard, beside the API it calls.
// Its embedded page (a portal session's) may be framed only by the origin its session names.
const dashboard = createDashboard({ apiBasePath: core.basePath, frameAncestor: core.portalFrameAncestor });
app.use(async (request, response, next) => {
  const answer = await dashboard.handle({
    method: request.method,
    url: request.originalUrl,
    headers: request.headers,
  });
  if (answer) await sendCoreResponse(response, answer);
  else next();
});
// Audit webhook delivery metrics for Prometheus (this example listens on 127.0.0.1 only).
app.get('/metrics', async (_request, response) => {
  response.type(PROMETHEUS_CONTENT_TYPE).send(await core.metricsText());
});

// Probes for a load balancer or Kubernetes: unauthenticated, nothing secret in them.
app.get('/healthz', (_request, response) => sendCoreResponse(response, probeResponse(core.health())));
app.get('/readyz', async (_request, response) =>
  sendCoreResponse(response, probeResponse(await core.ready())),
);

// HTTPS when the environment gives a certificate and key (see @latchkey/example-shared/tls).
const server = (tls ? createHttpsServer(tls, app) : createHttpServer(app)).listen(port, '127.0.0.1', () => {
  console.log(listeningLine(server.address(), tls));
});
// Requests Node's parser refuses (oversized headers, malformed framing) get our error body too.
server.on('clientError', latchkeyClientError);
server.on('error', (error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));
stopOnSignals(server, () => new Promise((resolve) => server.close(resolve)), core);
