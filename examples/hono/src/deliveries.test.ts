import { describeWebhookDeliveries } from '@latchkey/test-utils';

describeWebhookDeliveries('hono');
