/** Fastify: a bare `POST /push` with Fastify's own JSON body parser, and the Latchkey plugin. */
import { latchkeyFastify } from '@latchkey/adapter-fastify';
import Fastify from 'fastify';
import type { BenchServer, Listening } from './listening.js';

export const fastifyServer: BenchServer = {
  async bare(push) {
    const app = Fastify({ logger: false });
    app.post('/push', async (request, reply) => {
      const result = push(request.body);
      return reply.code(result.status).send(result.body);
    });
    return listen(app);
  },
  async adapter(core) {
    const app = Fastify({ logger: false });
    await app.register(latchkeyFastify, { core });
    return listen(app);
  },
};

async function listen(app: ReturnType<typeof Fastify>): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('fastify did not listen on a port');
  return { port: address.port, close: () => app.close() };
}
