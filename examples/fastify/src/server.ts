/** Latchkey served by Fastify, run from source: `pnpm --dir examples/fastify start`. */
import { latchkeyFastify, latchkeyFrameworkErrors } from '@latchkey/adapter-fastify';
import { latchkeyClientError } from '@latchkey/core/node';
import Fastify from 'fastify';
import { createExampleCore, fail, stopOnSignals } from '../../example-env.js';

const { core, port } = await createExampleCore();

// frameworkErrors: malformed URLs under /api/v2 get Latchkey's error body too; clientErrorHandler:
// so do requests Node's parser refuses (oversized headers, malformed framing).
const app = Fastify({
  frameworkErrors: latchkeyFrameworkErrors(core),
  clientErrorHandler: latchkeyClientError,
});
await app.register(latchkeyFastify, { core });

try {
  const url = await app.listen({ port, host: '127.0.0.1' });
  console.log(`listening on ${url}`);
} catch (error) {
  fail(`Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
}
stopOnSignals(app.server, () => app.close(), core.store);
