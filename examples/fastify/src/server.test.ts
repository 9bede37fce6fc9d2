import { describeExample } from '../../spawn-example.js';

describeExample('fastify');
