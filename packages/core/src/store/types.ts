/**
 * The repository ports every Latchkey store implements (memory, PGlite, PostgreSQL), one file per
 * repository under `ports/`, each stating what must be atomic and race-safe. The shared store
 * conformance suite checks those contracts against every store.
 */
export type {
  ActivityQuery,
  ActivityRepository,
  ActivityStreamQuery,
  PendingEvent,
} from './ports/activity.js';
export type { ActivityTreeReads } from './ports/activity-tree.js';
export type { AuditWebhookRepository, WebhookCredentials } from './ports/audit-webhooks.js';
export type {
  ChangeRequestCreateResult,
  ChangeRequestPatch,
  ChangeRequestQuery,
  ChangeRequestRepository,
} from './ports/change-requests.js';
export type { CreateResult } from './ports/common.js';
export type {
  AttemptPage,
  AttemptRecord,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryBacklog,
  DeliveryRepository,
  LeasedAttemptRecord,
  ReplayPace,
  ReplayRange,
} from './ports/deliveries.js';
export type { DeviceRepository } from './ports/devices.js';
export type { EnvironmentRepository } from './ports/environments.js';
export type { KeyIdRecord, KeyIdRepository } from './ports/key-ids.js';
export type { MemberChange, MemberPatch, MemberRepository } from './ports/members.js';
export type { NonceRepository } from './ports/nonces.js';
export type { OrganizationRepository } from './ports/organizations.js';
export type { PortalSessionCreateResult, PortalSessionRepository } from './ports/portal-sessions.js';
export type { ProjectRepository } from './ports/projects.js';
export type { RequestKeys, RequestRecords, RequestRepository } from './ports/requests.js';
export type {
  RestoredIdKind,
  RestoredSecret,
  RestoredSecretVersion,
  RestoreRepository,
  RestoreSession,
} from './ports/restores.js';
export type {
  ApplyPushInput,
  ApplyPushResult,
  PushNonce,
  SecretRepository,
  StoredSecretVersion,
  StoredValue,
  StoredValueChange,
  StoredValueRef,
  StoredVersionRef,
  StoredVersionValue,
  StoredVersionValueChange,
} from './ports/secrets.js';
export type { LatchkeyStore, StoreStatus, StoreTransaction } from './ports/store.js';
export type { TokenRepository } from './ports/tokens.js';
export type {
  RotationBounds,
  RotationOutcome,
  WebhookSigningKeyRepository,
} from './ports/webhook-signing-keys.js';
export type { Cosignature, Witness, WitnessAddResult, WitnessRepository } from './ports/witnesses.js';
export type {
  WorkloadCreateResult,
  WorkloadIssue,
  WorkloadIssueResult,
  WorkloadRepository,
} from './ports/workloads.js';
