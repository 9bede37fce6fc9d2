/** Every migration, in order. Append only: a released migration is never edited. */
import { initial } from './0001-initial.js';
import { auditWebhooks } from './0002-audit-webhooks.js';
import { deliveryNotifications } from './0003-delivery-notifications.js';
import { runningTotals } from './0004-running-totals.js';
import { restores } from './0005-restores.js';
import { keyring } from './0006-keyring.js';
import { restoreLimits } from './0007-restore-limits.js';
import { fairClaims } from './0008-fair-claims.js';
import { eventTypeFilters } from './0009-event-type-filters.js';
import { secretVersions } from './0010-secret-versions.js';
import { deliveryTraceparent } from './0011-delivery-traceparent.js';
import { signatureSchemes } from './0012-signature-schemes.js';
import { webhookCredentials } from './0013-webhook-credentials.js';
import { merkleTree } from './0014-merkle-tree.js';
import { witnesses } from './0015-witnesses.js';
import { pendingEvents } from './0016-pending-events.js';
import { versionRowsLockNothing } from './0017-version-rows-lock-nothing.js';
import { dueDeliveriesInOrder } from './0018-due-deliveries-in-order.js';
import { countedLeases } from './0019-counted-leases.js';
import { organizationCreators } from './0020-organization-creators.js';
import { webhookReplays } from './0021-webhook-replays.js';
import { restoresInSteps } from './0022-restores-in-steps.js';
import { changeRequests } from './0023-change-requests.js';
import { workloadIdentity } from './0024-workload-identity.js';
import { portalSessions } from './0025-portal-sessions.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  initial,
  auditWebhooks,
  deliveryNotifications,
  runningTotals,
  restores,
  keyring,
  restoreLimits,
  fairClaims,
  eventTypeFilters,
  secretVersions,
  deliveryTraceparent,
  signatureSchemes,
  webhookCredentials,
  merkleTree,
  witnesses,
  pendingEvents,
  versionRowsLockNothing,
  dueDeliveriesInOrder,
  countedLeases,
  organizationCreators,
  webhookReplays,
  restoresInSteps,
  changeRequests,
  workloadIdentity,
  portalSessions,
];
