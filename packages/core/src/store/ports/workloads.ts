/** Port: workload identities, the tokens issued to them, and the ID tokens (`jti`) already exchanged. */
import type { Device } from '../../model/model.js';
import type { WorkloadIdentity, WorkloadToken } from '../../model/workload.js';

/** What {@link WorkloadRepository.create} did. */
export type WorkloadCreateResult = 'created' | 'duplicate' | 'limit';

/** What {@link WorkloadRepository.issue} did. */
export type WorkloadIssueResult = 'issued' | 'replayed' | 'identity_gone' | 'jti_limit';

/** The exchange's writes, made as one step by {@link WorkloadRepository.issue}. */
export interface WorkloadIssue {
  token: WorkloadToken;
  /** The ephemeral device, with `expires_at` equal to the token's. */
  device: Device;
  /** The ID token's issuer and `jti`, remembered until `jti_expires_at` (the ID token's `exp`). */
  issuer: string;
  jti: string;
  jti_expires_at: string;
  /** The time of the exchange: remembered `jti`s that expired before it may be forgotten. */
  now: string;
  /** How many unexpired `jti`s one organization may remember per issuer. */
  max_jtis: number;
}

/** Identities are unique per organization by name; tokens by hash; `jti`s by organization and issuer. */
export interface WorkloadRepository {
  /**
   * Inserts an identity unless the organization has one of that name (`duplicate`) or already `max`
   * (`limit`): one atomic step, so two concurrent creates cannot both pass.
   */
  create(identity: WorkloadIdentity, max: number): Promise<WorkloadCreateResult>;
  /** The organization's identities, by name. */
  list(organizationId: string): Promise<WorkloadIdentity[]>;
  /** The identity with this name or id in the organization, or null. */
  get(organizationId: string, nameOrId: string): Promise<WorkloadIdentity | null>;
  /**
   * Removes an identity and every token issued to it, and revokes their devices at `at`, atomically;
   * the identity, or null when absent.
   */
  remove(organizationId: string, nameOrId: string, at: string): Promise<WorkloadIdentity | null>;
  /**
   * The exchange as one atomic step: forgets the issuer's expired `jti`s, refuses a `jti` it
   * remembers (`replayed`), refuses when the identity is gone (`identity_gone`) or when `max_jtis`
   * unexpired ones are remembered (`jti_limit`); else remembers the `jti` and inserts the device
   * and the token. On any refusal nothing is written.
   */
  issue(issue: WorkloadIssue): Promise<WorkloadIssueResult>;
  /** The token with this hash and its identity (null when either is absent; expired ones too). */
  findToken(tokenHash: string): Promise<{ token: WorkloadToken; identity: WorkloadIdentity } | null>;
}
