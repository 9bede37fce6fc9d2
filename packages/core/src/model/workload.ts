/** The records of workload identity: who a CI job may be, and the short-lived tokens it was issued. */
import type { Grant } from './roles.js';

/** What a workload token may do: a subset of these permissions, on the identity's grants. */
export const WORKLOAD_ACTIONS = ['secrets:read', 'secrets:push', 'changes:propose'] as const;

/** One of {@link WORKLOAD_ACTIONS}. */
export type WorkloadAction = (typeof WORKLOAD_ACTIONS)[number];

/**
 * A trust rule: ID tokens of `issuer` for `audience` whose `sub` and every listed claim equal these
 * exact strings are exchanged for a token acting as this identity.
 */
export interface WorkloadIdentity {
  id: string;
  organization_id: string;
  name: string;
  /** The issuer's URL, exactly as its tokens' `iss` names it (https). */
  issuer: string;
  audience: string;
  /** The exact `sub` a token must carry. */
  subject: string;
  /** Further claims and the exact string each must equal (`repository_id`, `ref`, …). */
  claims: Record<string, string>;
  grants: Grant[];
  actions: WorkloadAction[];
  token_ttl_seconds: number;
  created_at: string;
}

/** A token issued to a workload, stored only as the SHA-256 of its value. */
export interface WorkloadToken {
  id: string;
  organization_id: string;
  identity_id: string;
  /** Hex SHA-256 of the token string. */
  token_hash: string;
  /** The ephemeral device made from the job's public key, which expires with the token. */
  device_id: string;
  created_at: string;
  expires_at: string;
}

/** Prefix of workload tokens: how authentication tells them from member tokens. */
export const WORKLOAD_TOKEN_PREFIX = 'lkw_';
