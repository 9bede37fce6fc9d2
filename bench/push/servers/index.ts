/** The benchmark servers, by framework. */
import type { Framework } from '../protocol.js';
import { expressServer } from './express.js';
import { fastifyServer } from './fastify.js';
import { honoServer } from './hono.js';
import type { BenchServer } from './listening.js';

export const SERVERS: Record<Framework, BenchServer> = {
  express: expressServer,
  fastify: fastifyServer,
  hono: honoServer,
};
