/** Latchkey served by Fastify: `pnpm --dir examples/fastify start` (built, then run with node). */
import type { IncomingHttpHeaders } from 'node:http';
import { latchkeyFastify, latchkeyFrameworkErrors } from '@latchkey/adapter-fastify';
import { type CoreResponse, PROMETHEUS_CONTENT_TYPE, probeResponse } from '@latchkey/core';
import { latchkeyClientError, sendCoreResponse } from '@latchkey/core/node';
import { createDashboard } from '@latchkey/dashboard';
import { createExampleCore, fail, stopOnSignals } from '@latchkey/example-shared/env';
import { listeningLine } from '@latchkey/example-shared/tls';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

const { core, port, tls } = await createExampleCore();

// frameworkErrors: malformed URLs under /api/v2 get Latchkey's error body too; clientErrorHandler:
// so do requests Node's parser refuses (oversized headers, malformed framing).
// HTTPS when the environment gives a certificate and key (see @latchkey/example-shared/tls).
const app = Fastify({
  frameworkErrors: latchkeyFrameworkErrors(core),
  clientErrorHandler: latchkeyClientError,
  ...(tls ? { https: tls } : {}),
});
await app.register(latchkeyFastify, { core });
// The dashboard (Settings > Notifications > Audit Webhooks) at /dashboard, beside the API it calls.
// Its embedded page (a portal session's) may be framed only by the origin its session names.
const dashboard = createDashboard({ apiBasePath: core.basePath, frameAncestor: core.portalFrameAncestor });
const serveDashboard = async (request: FastifyRequest, reply: FastifyReply) => {
  const answer = await dashboard.handle({
    method: request.method,
    url: request.url,
    headers: request.headers as IncomingHttpHeaders,
  });
  if (!answer) return reply.callNotFound();
  reply.hijack();
  await sendCoreResponse(reply.raw, answer);
};
app.all(dashboard.basePath, serveDashboard);
app.all(`${dashboard.basePath}/*`, serveDashboard);
// Audit webhook delivery metrics for Prometheus (this example listens on 127.0.0.1 only).
app.get('/metrics', async (_request, reply) =>
  reply.type(PROMETHEUS_CONTENT_TYPE).send(await core.metricsText()),
);
// Probes for a load balancer or Kubernetes: unauthenticated, nothing secret in them.
const probe = (reply: FastifyReply, answer: CoreResponse) =>
  reply.code(answer.status).headers(answer.headers).send(answer.body);
app.get('/healthz', async (_request, reply) => probe(reply, probeResponse(core.health())));
app.get('/readyz', async (_request, reply) => probe(reply, probeResponse(await core.ready())));

try {
  await app.listen({ port, host: '127.0.0.1' });
  console.log(listeningLine(app.server.address(), tls));
} catch (error) {
  fail(`Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
}
stopOnSignals(app.server, () => app.close(), core);
