/**
 * The example-server tests: each example started as a user would start it, and its webhook
 * deliveries end to end. Starting one without vitest is `start-example.ts`, the `./spawn` subpath.
 */
export { describeExample } from './describe-example.js';
export { describeWebhookDeliveries } from './webhook-deliveries.js';
