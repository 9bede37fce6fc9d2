import { describeWebhookDeliveries } from '../../webhook-deliveries.js';

describeWebhookDeliveries('hono');
