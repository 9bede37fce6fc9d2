/** Hono on `@hono/node-server`: a bare `POST /push` with `c.req.json()`, and the Latchkey sub-app. */

import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { latchkeyHono } from '@latchkey/adapter-hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type BenchServer, type Listening, listening } from './listening.js';

export const honoServer: BenchServer = {
  async bare(push) {
    const app = new Hono();
    app.post('/push', async (c) => {
      const result = push(await c.req.json());
      return c.json(result.body as object, result.status as ContentfulStatusCode);
    });
    return listen(app);
  },
  async adapter(core) {
    const app = new Hono();
    app.route('/', latchkeyHono(core));
    return listen(app);
  },
};

async function listen(app: Hono): Promise<Listening> {
  return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server);
}
