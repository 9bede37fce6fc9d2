/** Latchkey served by Hono on Node, run from source: `pnpm --dir examples/hono start`. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { latchkeyHono } from '@latchkey/adapter-hono';
import { Hono } from 'hono';
import { createExampleCore, fail, stopOnSignals } from '../../example-env.js';

const { core, port } = await createExampleCore();

const app = new Hono();
app.route('/', latchkeyHono(core));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
}) as Server;
server.on('error', (error) => fail(`Cannot listen on 127.0.0.1:${port}: ${error.message}`));
stopOnSignals(server, () => new Promise((resolve) => server.close(resolve)));
