/**
 * The repository interfaces every Latchkey store implements (memory, PGlite, PostgreSQL). Each method
 * states what must be atomic; the shared conformance suite checks it against every store.
 */
import type { PushChange, PushPlan } from '../conflicts.js';
import type {
  ActivityDraft,
  ActivityEvent,
  ApiToken,
  Device,
  Environment,
  Member,
  Organization,
  Project,
  SecretVersion,
} from '../model.js';

/** `created` or, when the unique key is already taken, `exists` (and nothing was written). */
export type CreateResult = 'created' | 'exists';

export interface OrganizationRepository {
  /** Inserts unless the slug is taken. Atomic on the slug. */
  create(org: Organization): Promise<CreateResult>;
  getBySlug(slug: string): Promise<Organization | null>;
  getById(id: string): Promise<Organization | null>;
}

export interface ProjectRepository {
  /** Inserts unless the slug is taken in the organization. Atomic on (organization, slug). */
  create(project: Project): Promise<CreateResult>;
  get(organizationId: string, slug: string): Promise<Project | null>;
  list(organizationId: string): Promise<Project[]>;
}

export interface EnvironmentRepository {
  /** Inserts unless the slug is taken in the project. Atomic on (project, slug). */
  create(environment: Environment): Promise<CreateResult>;
  get(projectId: string, slug: string): Promise<Environment | null>;
  list(projectId: string): Promise<Environment[]>;
  /** Changes settings; returns the updated record or null when it does not exist. */
  update(id: string, patch: Pick<Environment, 'require_strict_conflict_mode'>): Promise<Environment | null>;
}

export interface MemberRepository {
  /** Inserts unless the user is already a member. Atomic on (organization, user). */
  create(member: Member): Promise<CreateResult>;
  get(organizationId: string, user: string): Promise<Member | null>;
  list(organizationId: string): Promise<Member[]>;
}

export interface TokenRepository {
  create(token: ApiToken): Promise<void>;
  /** Looks a token up by the hex SHA-256 of its value; revoked tokens are returned too. */
  findByHash(tokenHash: string): Promise<ApiToken | null>;
  list(organizationId: string): Promise<ApiToken[]>;
  /** Marks a token revoked; returns it, or null when absent in that organization. Idempotent. */
  revoke(organizationId: string, id: string, at: string): Promise<ApiToken | null>;
}

export interface DeviceRepository {
  create(device: Device): Promise<void>;
  get(organizationId: string, id: string): Promise<Device | null>;
  /** Devices of the organization, or only those of `user`. */
  list(organizationId: string, user?: string): Promise<Device[]>;
  /** Marks a device revoked; returns it, or null when absent in that organization. Idempotent. */
  revoke(organizationId: string, id: string, at: string): Promise<Device | null>;
}

export interface NonceRepository {
  /**
   * Records `nonce` for `scope` unless it is already recorded: one atomic set-if-absent. Returns
   * false when the nonce was seen before (a replay). Entries may be forgotten after `expiresAt` (ms).
   */
  consume(scope: string, nonce: string, expiresAt: number, now: number): Promise<boolean>;
}

/** Input of {@link SecretRepository.applyPush}. */
export interface ApplyPushInput {
  organizationId: string;
  environmentId: string;
  changes: readonly PushChange[];
  force: boolean;
  now: string;
  /** Builds the success event from the plan; appended in the same transaction as the writes. */
  event: (plan: Extract<PushPlan, { ok: true }>) => ActivityDraft;
}

export type ApplyPushResult =
  | { ok: true; versions: { key: string; version: number }[]; event: ActivityEvent }
  | { ok: false; conflicts: Extract<PushPlan, { ok: false }>['conflicts'] };

export interface SecretRepository {
  /**
   * One compare-and-set over all keys of the push. Under a lock on the environment (or the keys),
   * read the heads of the pushed keys, call `planPush` from `@latchkey/core`, and either write every
   * planned version plus the success event (sealed into the organization's chain), or, on any
   * mismatch, write nothing at all and return the conflicts. Concurrent pushes to the same keys must
   * serialise: exactly one of N pushes with the same `if_version` succeeds.
   */
  applyPush(input: ApplyPushInput): Promise<ApplyPushResult>;
  /** The live (non-deleted) head of every key of the environment, sorted by key. */
  listLive(environmentId: string): Promise<SecretVersion[]>;
}

/** Filters of {@link ActivityRepository.list}. */
export interface ActivityQuery {
  organizationId: string;
  project?: string;
  environment?: string;
  type?: string;
  /** Only events with `seq` below this (newest-first paging). */
  beforeSeq?: number;
  since?: string;
  until?: string;
  limit: number;
}

export interface ActivityRepository {
  /**
   * Seals `draft` after the organization's chain head (see `sealEvent`) and stores it. Appends to one
   * organization are serialised so the chain never forks.
   */
  append(organizationId: string, draft: ActivityDraft): Promise<ActivityEvent>;
  /** Events matching the query, newest first. */
  list(query: ActivityQuery): Promise<ActivityEvent[]>;
}

/** A complete Latchkey store. */
export interface LatchkeyStore {
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  environments: EnvironmentRepository;
  members: MemberRepository;
  tokens: TokenRepository;
  devices: DeviceRepository;
  nonces: NonceRepository;
  secrets: SecretRepository;
  activity: ActivityRepository;
  /** Releases connections; a no-op for the memory store. */
  close?(): Promise<void>;
}
