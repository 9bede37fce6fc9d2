import type { AnyRoute } from '../http/router.js';
import { auditWebhookDeliveryRoutes } from './audit-webhook-deliveries.js';
import { auditWebhookMetricsRoutes } from './audit-webhook-metrics.js';
import { auditWebhookTestRoutes } from './audit-webhook-test.js';
import { auditWebhookUpdateRoutes } from './audit-webhook-update.js';
import { auditWebhookRoutes } from './audit-webhooks.js';
import { backupRoutes } from './backup.js';
import { changeRequestRoutes } from './change-requests.js';
import { checkpointRoutes } from './checkpoint.js';
import { createOrganizationRoutes } from './create-organization.js';
import { deviceRoutes } from './devices.js';
import { eventTypeRoutes } from './event-types.js';
import { exportRoutes } from './export.js';
import { historyRoutes } from './history.js';
import { meRoutes } from './me.js';
import { memberLifecycleRoutes } from './member-lifecycle.js';
import { memberRoutes } from './members.js';
import { metaRoutes } from './meta.js';
import { organizationRoutes } from './organization.js';
import { portalSessionRoutes } from './portal-sessions.js';
import { proofRoutes } from './proofs.js';
import { restoreRoutes } from './restore.js';
import { secretVersionRoutes } from './secret-versions.js';
import { secretRoutes } from './secrets.js';
import { tokenRoutes } from './tokens.js';
import { webhookSigningKeyRoutes } from './webhook-signing-keys.js';
import { witnessRoutes } from './witnesses.js';
import { workloadIdentityRoutes } from './workload-identities.js';
import { workloadTokenRoutes } from './workload-tokens.js';

/** The whole route table of the core. */
export const allRoutes: readonly AnyRoute[] = [
  ...metaRoutes,
  ...meRoutes,
  ...eventTypeRoutes,
  ...createOrganizationRoutes,
  ...organizationRoutes,
  ...memberRoutes,
  ...memberLifecycleRoutes,
  ...tokenRoutes,
  ...deviceRoutes,
  ...secretRoutes,
  ...changeRequestRoutes,
  ...secretVersionRoutes,
  ...historyRoutes,
  ...exportRoutes,
  ...checkpointRoutes,
  ...witnessRoutes,
  ...proofRoutes,
  ...backupRoutes,
  ...restoreRoutes,
  ...auditWebhookRoutes,
  ...auditWebhookUpdateRoutes,
  ...auditWebhookDeliveryRoutes,
  ...auditWebhookMetricsRoutes,
  ...auditWebhookTestRoutes,
  ...webhookSigningKeyRoutes,
  ...workloadIdentityRoutes,
  ...workloadTokenRoutes,
  ...portalSessionRoutes,
];
