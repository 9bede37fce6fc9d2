/** Port: a complete Latchkey store, and its unit of work. */
import type { ActivityRepository } from './activity.js';
import type { AuditWebhookRepository } from './audit-webhooks.js';
import type { ChangeRequestRepository } from './change-requests.js';
import type { DeliveryRepository } from './deliveries.js';
import type { DeviceRepository } from './devices.js';
import type { EnvironmentRepository } from './environments.js';
import type { KeyIdRepository } from './key-ids.js';
import type { MemberRepository } from './members.js';
import type { NonceRepository } from './nonces.js';
import type { OrganizationRepository } from './organizations.js';
import type { PortalSessionRepository } from './portal-sessions.js';
import type { ProjectRepository } from './projects.js';
import type { RequestRepository } from './requests.js';
import type { RestoreRepository } from './restores.js';
import type { SecretRepository } from './secrets.js';
import type { TokenRepository } from './tokens.js';
import type { WebhookSigningKeyRepository } from './webhook-signing-keys.js';
import type { WitnessRepository } from './witnesses.js';
import type { WorkloadRepository } from './workloads.js';

/** Every repository of a store, as seen inside or outside a transaction. */
export interface StoreTransaction {
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  environments: EnvironmentRepository;
  members: MemberRepository;
  tokens: TokenRepository;
  devices: DeviceRepository;
  nonces: NonceRepository;
  secrets: SecretRepository;
  activity: ActivityRepository;
  requests: RequestRepository;
  auditWebhooks: AuditWebhookRepository;
  deliveries: DeliveryRepository;
  restores: RestoreRepository;
  keyIds: KeyIdRepository;
  witnesses: WitnessRepository;
  webhookSigningKeys: WebhookSigningKeyRepository;
  changeRequests: ChangeRequestRepository;
  workloads: WorkloadRepository;
  portalSessions: PortalSessionRepository;
}

/** What {@link LatchkeyStore.status} answers. */
export interface StoreStatus {
  migrations: { version: number; expected: number };
}

/** A complete Latchkey store. */
export interface LatchkeyStore extends StoreTransaction {
  /**
   * The unit of work: runs `fn` with a transactional view of every repository and returns what it
   * returns. When `fn` throws (or rejects), nothing it wrote through `tx` remains (records,
   * activity events and their chain position, consumed nonces, applied pushes) and the error is
   * rethrown. Reads through `tx` see the transaction's own writes, and never part of another
   * transaction: its whole effect or none of it.
   *
   * Isolation is PostgreSQL's READ COMMITTED, not SERIALIZABLE: each repository call is race-safe by
   * itself (its own row locks, or one atomic step in memory), but a value read earlier in the
   * transaction may have changed by the time it writes. A decision built on an earlier read must be
   * re-checked by the write itself, as pushes do with `if_version` (compare-and-set): throw on a
   * mismatch to undo the unit, and try again if that is what the caller wants.
   *
   * A state change and the activity event that records it belong in one transaction. Do not use
   * the store's own repositories inside `fn`: outside calls wait for the transaction (memory) or
   * take another connection (SQL), so they may deadlock or escape the rollback.
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Optional: true when a transaction holds every other caller of the store until it ends (the
   * memory store's process-wide lock; PGlite's one connection). Work as long as a large restore
   * then runs in short steps instead of one transaction, the organization unavailable meanwhile,
   * so that other organizations are not held (see `backup/restore/steps.ts`).
   */
  readonly serialTransactions?: boolean;
  /**
   * Optional: yields what `fn` yields, every read `fn` makes through `view` of the organization
   * seeing one snapshot of the store, taken before its first read (no write lands between two of
   * them), so a backup's keys, versions and history agree. `view` is read-only. PostgreSQL: one
   * `REPEATABLE READ READ ONLY` transaction on one connection, held until the iteration ends or is
   * abandoned (and ended by the server's `idle_in_transaction_session_timeout` when the consumer
   * stops pulling). A serial store must not hold every other caller that long: the memory store
   * copies the organization's records in one step and reads the copy; PGlite reads everything in
   * one transaction before it yields the first item. Without it, a backup reads the live store.
   */
  snapshot?<T>(organizationId: string, fn: (view: StoreTransaction) => AsyncIterable<T>): AsyncIterable<T>;
  /**
   * Optional: calls `onQueued` soon after deliveries are queued or released, by this process or any
   * other sharing the store (SQL: `LISTEN`/`NOTIFY`), so delivery engines need not poll to start
   * within milliseconds. Resolves with a function that stops watching.
   */
  watchDeliveries?(onQueued: () => void): Promise<() => Promise<void>>;
  /**
   * Optional: one cheap round trip for `core.ready()`, answering the newest migration applied to the
   * store's schema and the newest this code knows. Must not write, nor hold a connection after it
   * answers (the probe calls it every few seconds). A store without a schema leaves it out.
   */
  status?(): Promise<StoreStatus>;
  /** Releases connections; a no-op for the memory store. */
  close?(): Promise<void>;
}
