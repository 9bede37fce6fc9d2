import { describeExample } from '../../spawn-example.js';

describeExample('hono');
