/** The stored records of Latchkey. Dates are ISO-8601 strings in UTC. */
import type { Grant, Role } from './permissions.js';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface Project {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  created_at: string;
}

export interface Environment {
  id: string;
  organization_id: string;
  project_id: string;
  slug: string;
  require_strict_conflict_mode: boolean;
  created_at: string;
}

export interface Member {
  organization_id: string;
  user: string;
  role: Role;
  grants: Grant[];
  created_at: string;
}

/** A built-in API token. Only the SHA-256 of the token is stored. */
export interface ApiToken {
  id: string;
  organization_id: string;
  user: string;
  name: string;
  /** Hex SHA-256 of the token string. */
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface Device {
  id: string;
  organization_id: string;
  user: string;
  name: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  public_key: string;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
}

/** One version of one secret key. A tombstone has `value: null`. */
export interface SecretVersion {
  key: string;
  version: number;
  value: string | null;
  updated_at: string;
}

/** Who caused an event. */
export interface Actor {
  type: 'user' | 'system';
  id: string;
}

/** An activity event as the caller builds it, before the store places it in the chain. */
export interface ActivityDraft {
  id: string;
  type: string;
  occurred_at: string;
  organization: string;
  project?: string | undefined;
  environment?: string | undefined;
  actor: Actor;
  device_id?: string | undefined;
  data: Record<string, unknown>;
}

/** A stored activity event: the draft plus its place in the organization's hash chain. */
export interface ActivityEvent extends ActivityDraft {
  /** Position in the organization's chain, from 1. */
  seq: number;
  /** `hash` of the previous event of the organization, or 64 zeros for the first. */
  prev_hash: string;
  /** Hex SHA-256 over `prev_hash` and the canonical JSON of the event without `hash`. */
  hash: string;
}
