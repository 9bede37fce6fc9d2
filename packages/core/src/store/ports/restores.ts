/**
 * Port: restoring a backup. A restore is staged first (the client sends the backup in parts, each
 * within the request size limit), then applied by one transaction that replaces the organization's
 * content, so a restore is whole or absent.
 */

import type { BackupManifest } from '../../model/backup-format.js';
import type { ActivityEvent } from '../../model/model.js';
import type { StoredSecretVersion } from '../../model/secret-version.js';

/** A staged restore: who began it, what the whole must hash to, and until when it is kept. */
export interface RestoreSession {
  id: string;
  organization_id: string;
  user: string;
  manifest: BackupManifest;
  force: boolean;
  created_at: string;
  /** Sessions past this time are dropped (with their parts) by the next `begin`. */
  expires_at: string;
}

/** A key as restore writes it: a live value already sealed for this server, or a tombstone (null). */
export interface RestoredSecret {
  environment_id: string;
  key: string;
  version: number;
  value: string | null;
  updated_at: string;
}

/** One version of a key's history as restore writes it (its kept value sealed for its environment). */
export interface RestoredSecretVersion extends StoredSecretVersion {
  environment_id: string;
}

/** Records whose ids restore keeps when no other organization holds them. */
export type RestoredIdKind =
  | 'project'
  | 'environment'
  | 'device'
  | 'audit_webhook'
  | 'workload_identity'
  | 'change_request';

export interface RestoreRepository {
  /**
   * Stores a new session, first dropping every expired one (of any organization) and its parts, and
   * answers null; or, when the organization already has a session that has not expired, stores
   * nothing and answers that one. One check-and-insert: of two calls at once for one organization,
   * one stores its session and the other answers it.
   */
  begin(session: RestoreSession, now: string): Promise<RestoreSession | null>;
  /** The session, when it is of this organization and has not expired. */
  get(organizationId: string, id: string, now: string): Promise<RestoreSession | null>;
  /**
   * Stores part `index` of the session (`bytes` long as the client sent it, before any sealing),
   * replacing an earlier upload of the same index, unless the session's parts would then hold more
   * than `maxBytes` in all: then it stores nothing. Answers the bytes the parts hold with this one
   * (stored or not), or null when the session is gone. One step: parts sent at once cannot together
   * pass `maxBytes`.
   */
  putPart(
    sessionId: string,
    index: number,
    data: string,
    bytes: number,
    maxBytes: number,
  ): Promise<number | null>;
  /** How many parts the session holds and the highest index, to check they are 0…n-1. */
  partStats(sessionId: string): Promise<{ count: number; maxIndex: number }>;
  /**
   * The parts in ascending index, read a few at a time; on a transaction's view, or outside one
   * (a restore in steps), where the memory store waits for a running transaction before the first.
   */
  parts(sessionId: string): AsyncIterable<string>;
  /**
   * Marks the session as being applied in steps (see `LatchkeyStore.serialTransactions`) and
   * answers it; null when it is gone, expired or already marked. One check-and-set. A marked
   * session is left by `begin`'s sweep of expired ones, and a SQL store that opens on one finds a
   * restore its process did not finish: it empties the organization (the restorer stays its owner)
   * and drops the session.
   */
  claim(organizationId: string, id: string, now: string): Promise<RestoreSession | null>;
  /** Drops the session and its parts (nothing when it is already gone). */
  end(sessionId: string): Promise<void>;
  /**
   * Drops the session's parts and keeps the session (its mark still tells a restart that the
   * restore did not end): a restore in steps, done reading them, drops them before the short
   * transaction that ends it. A SQL store deletes them one per statement, each its own step.
   */
  dropParts(sessionId: string): Promise<void>;
  /**
   * Removes the organization's content: projects, environments, secrets, members, devices, audit
   * webhooks with their deliveries, attempts and metrics, and the activity chain. The organization
   * itself and its API tokens stay. With `inSteps` (a restore in steps, its organization unavailable
   * meanwhile and emptied by a restart), a store may first delete the largest parts a chunk per
   * statement, each its own step, so that no one statement holds a serial store for long.
   */
  clearOrganization(organizationId: string, options?: { inSteps?: boolean }): Promise<void>;
  /** Which of `ids` are already used by a record of that kind (of any organization). */
  takenIds(kind: RestoredIdKind, ids: readonly string[]): Promise<Set<string>>;
  /** Writes keys as given (versions included; a null value is a tombstone), into environments emptied by `clearOrganization`. */
  insertSecrets(secrets: readonly RestoredSecret[]): Promise<void>;
  /** Inserts versions of keys' histories as given, after `clearOrganization`. */
  insertSecretVersions(versions: readonly RestoredSecretVersion[]): Promise<void>;
  /**
   * Appends already sealed events verbatim (no deliveries are queued for them) and moves the chain
   * head to the last one. Called in order, from the chain's first event, after `clearOrganization`;
   * the Merkle tree grows with them in the same step (`extendTree`).
   */
  insertEvents(organizationId: string, events: readonly ActivityEvent[]): Promise<void>;
}
