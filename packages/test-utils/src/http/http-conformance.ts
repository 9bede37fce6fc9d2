/**
 * The HTTP conformance suite: one body of tests that every way of serving the core must pass,
 * in-process through `core.handle` and over a real loopback server for each adapter. Its parts live
 * in the folders beside it, one file per group; they share the state of {@link ConformanceContext},
 * which `serve-suite.ts` sets up.
 */
import type { LatchkeyStore } from '@latchkey/core';
import { describeKeyed, type SkipList } from '../keyed/keyed.js';
import { describeCheckpointNoteTests } from './activity/checkpoint-notes.js';
import { describeEventTypeTests } from './activity/event-types.js';
import { describeExportTests } from './activity/export.js';
import { describeHistoryTests } from './activity/history.js';
import { describeOfflineEvidenceTests } from './activity/offline-evidence.js';
import { describeProofTests } from './activity/proofs.js';
import { describeWitnessRegistrationTests } from './activity/witness-registration.js';
import { describeAuditWebhookFilterTests } from './audit-webhooks/audit-webhook-filters.js';
import { describeAuditWebhookReplayTests } from './audit-webhooks/audit-webhook-replay.js';
import { describeWebhookTestEventTests } from './audit-webhooks/audit-webhook-test-events.js';
import { describeAuditWebhookTests } from './audit-webhooks/audit-webhooks.js';
import { describeMetricsSeriesTests } from './audit-webhooks/metrics-series.js';
import { describeReceiverCredentialTests } from './audit-webhooks/receiver-credentials.js';
import { describeReceiverCredentialBackupTests } from './audit-webhooks/receiver-credentials-backup.js';
import { describeReceiverHandshakeTests } from './audit-webhooks/receiver-handshakes.js';
import { describeSignatureSchemeChangeTests } from './audit-webhooks/signature-scheme-changes.js';
import { describeSignatureSchemeTests } from './audit-webhooks/signature-schemes.js';
import { describeSigningKeyBoundTests } from './audit-webhooks/signing-key-bounds.js';
import { describeWebhookInputBoundTests } from './audit-webhooks/webhook-input-bounds.js';
import { describeBackupTests } from './backup/backup.js';
import { describeRestoreTests } from './backup/restore.js';
import { describeRestoreLimitTests } from './backup/restore-limits.js';
import { describeRestoreRequestRuleTests } from './backup/restore-request-rules.js';
import { describeRestoreRequestTests } from './backup/restore-requests.js';
import { describeRestoreRuleTests } from './backup/restore-rules.js';
import { describeRestoreSigningKeyTests } from './backup/restore-signing-keys.js';
import { describeRestoreTreeTests } from './backup/restore-tree.js';
import { describeRestoreVersionTests } from './backup/restore-versions.js';
import { describeChangeRequestApplyTests } from './change-requests/change-request-apply.js';
import { describeChangeRequestDeliveryTests } from './change-requests/change-request-deliveries.js';
import { describeChangeRequestLifecycleTests } from './change-requests/change-request-lifecycle.js';
import { describeChangeRequestRaceTests } from './change-requests/change-request-races.js';
import { describeChangeRequestTests } from './change-requests/change-requests.js';
import type { ConformanceContext } from './harness/context.js';
import { expectError } from './harness/expect-error.js';
import type { StartTarget } from './harness/http-target.js';
import { describeCreateOrganizationTests } from './members/create-organization.js';
import { describeMeTests } from './members/me.js';
import { describeMemberLifecycleTests } from './members/member-lifecycle.js';
import { describeOrganizationLimitTests } from './members/organization-limits.js';
import { describeRoleTableTests } from './members/role-table.js';
import { describeRoleTests } from './members/roles.js';
import { describeWhoActsOnWhomTests } from './members/who-acts-on-whom.js';
import { describeNeighbourTests } from './neighbours/neighbours.js';
import { describePortalBoundTests } from './portal/portal-bounds.js';
import { describePortalEndingTests } from './portal/portal-endings.js';
import { describePortalReviewTests } from './portal/portal-reviews.js';
import { describePortalRightsTests } from './portal/portal-rights.js';
import { describePortalSessionTests } from './portal/portal-sessions.js';
import { describeDeviceKeyTests } from './pushes/device-keys.js';
import { describePushRefusalTests } from './pushes/push-refusals.js';
import { describePushTests } from './pushes/pushes.js';
import { describeSecretVersionTests } from './pushes/secret-versions.js';
import type { RemoteServer } from './remote/remote-server.js';
import { describeClockTests } from './requests/clock.js';
import { describeMediaTypeTests } from './requests/media-types.js';
import { describeOpenApiStatusTests } from './requests/openapi-statuses.js';
import { describeRequestTests } from './requests/requests.js';
import { describeWellFormedTextTests } from './requests/well-formed-text.js';
import { createConformanceContext, serveForTheSuite } from './serve-suite.js';
import { describeWorkloadIdentityTests } from './workload/workload-identity.js';
import { describeWorkloadTokenTests } from './workload/workload-tokens.js';

export { expectError };

/** Options of {@link describeHttpConformance}. */
export interface HttpConformanceOptions {
  /** Names the way of serving (and the store, when not memory) in the report. */
  name: string;
  /** Serves the core the suite built and bootstrapped. */
  start: StartTarget;
  /** An empty store for the core; the memory store when absent. The suite closes it at the end. */
  store?: () => Promise<LatchkeyStore>;
  /** Tests this target skips, by name, each with the reason. */
  skip?: SkipList;
  /**
   * Registers only the noisy-neighbour tests (another organization's p99 while one is busy), which
   * time requests and so run apart from the rest, on a machine nothing else is using; without it,
   * everything but them. An object registers them too, with the p99 bound of the test where one
   * owner does everything at once (default 100 ms), for a store whose server shares the machine.
   */
  neighbours?: boolean | { allAtOnceP99Ms: number };
  /**
   * Runs the suite against a server in a process of its own (see `remote/`): the server builds the
   * suite's core on its own store, and `store` is not used; `start` then serves only the other
   * cores a few tests build (on the server's store, through the channel).
   */
  remote?: RemoteServer;
}

/** Registers the suite for one way of serving the core (on one store). */
export function describeHttpConformance({
  name,
  start,
  store,
  skip = {},
  neighbours = false,
  remote,
}: HttpConformanceOptions): void {
  describeKeyed(`HTTP conformance: ${neighbours ? 'neighbours, ' : ''}${name}`, skip, () => {
    const ctx = createConformanceContext();
    serveForTheSuite(ctx, start, remote ?? store);

    if (neighbours) {
      describeNeighbourTests(ctx, neighbours === true ? undefined : neighbours.allAtOnceP99Ms);
      return;
    }
    describeAllTests(ctx);
  });
}

/** Every group of the suite, in the order they run. */
function describeAllTests(ctx: ConformanceContext): void {
  describeRequestTests(ctx);
  describePushTests(ctx);
  describePushRefusalTests(ctx);
  describeChangeRequestTests(ctx);
  describeChangeRequestApplyTests(ctx);
  describeChangeRequestLifecycleTests(ctx);
  describeChangeRequestDeliveryTests(ctx);
  describeChangeRequestRaceTests(ctx);
  describeSecretVersionTests(ctx);
  describeWellFormedTextTests(ctx);
  describeRoleTests(ctx);
  describeWhoActsOnWhomTests(ctx);
  describeMemberLifecycleTests(ctx);
  describeCreateOrganizationTests(ctx);
  describeOrganizationLimitTests(ctx);
  describeMeTests(ctx);
  describeBackupTests(ctx);
  describeRestoreTests(ctx);
  describeRestoreRequestTests(ctx);
  describeRestoreRequestRuleTests(ctx);
  describeRestoreLimitTests(ctx);
  describeRestoreRuleTests(ctx);
  describeRestoreTreeTests(ctx);
  describeRestoreVersionTests(ctx);
  describeRestoreSigningKeyTests(ctx);
  describeHistoryTests(ctx);
  describeExportTests(ctx);
  describeWitnessRegistrationTests(ctx);
  describeCheckpointNoteTests(ctx);
  describeProofTests(ctx);
  describeOfflineEvidenceTests(ctx);
  describeRoleTableTests(ctx);
  describeDeviceKeyTests(ctx);
  describeClockTests(ctx);
  describeMediaTypeTests(ctx);
  describeOpenApiStatusTests(ctx);
  describeAuditWebhookTests(ctx);
  describeWebhookTestEventTests(ctx);
  describeAuditWebhookFilterTests(ctx);
  describeReceiverCredentialTests(ctx);
  describeReceiverCredentialBackupTests(ctx);
  describeWebhookInputBoundTests(ctx);
  describeReceiverHandshakeTests(ctx);
  describeAuditWebhookReplayTests(ctx);
  describeMetricsSeriesTests(ctx);
  describeEventTypeTests(ctx);
  describeSignatureSchemeTests(ctx);
  describeSignatureSchemeChangeTests(ctx);
  describeSigningKeyBoundTests(ctx);
  describeWorkloadIdentityTests(ctx);
  describeWorkloadTokenTests(ctx);
  describePortalSessionTests(ctx);
  describePortalEndingTests(ctx);
  describePortalRightsTests(ctx);
  describePortalBoundTests(ctx);
  describePortalReviewTests(ctx);
}
