/** Port: per-key secret versions and the one compare-and-set that writes them. */

import type { ActivityDraft, ActivityEvent, SecretVersion } from '../../model/model.js';
import type { PushEventTemplate } from '../../model/push-event.js';
import type { PushChange, PushPlan } from '../../model/push-plan.js';
import type { StoredSecretVersion } from '../../model/secret-version.js';
import type { PendingEvent } from './activity.js';

export type { StoredSecretVersion } from '../../model/secret-version.js';

/** Input of {@link SecretRepository.applyPush}. */
export interface ApplyPushInput {
  organizationId: string;
  environmentId: string;
  changes: readonly PushChange[];
  force: boolean;
  now: string;
  /**
   * What the push's success event says besides the plan. Under its lock the store builds the event
   * with `pushEvent(plan, eventTemplate)` (from `@latchkey/core/store`), for an `ok` plan only, and
   * seals the draft into the organization's chain with the writes (or stores it as pending, sealed
   * by `sealPending`). A conflict's event is the caller's to append.
   */
  eventTemplate: PushEventTemplate;
  /**
   * How many versions of each key keep their value (core option `secretVersionsKept`); default
   * `DEFAULT_SECRET_VERSIONS_KEPT`. Older versions lose their value in the same transaction.
   */
  versionsKept?: number | undefined;
  /**
   * The push's nonce, consumed by the same step, before anything else, exactly as
   * `nonces.consume(scope, value, expiresAt, now)` would: a nonce seen before answers `replayed`
   * and writes nothing; otherwise it stays consumed whatever the plan (so a conflict leaves only the
   * nonce, which the caller records with the conflict's event in its unit of work). Lets a SQL
   * store consume it in the statement that locks the heads.
   */
  nonce?: PushNonce | undefined;
}

/** A push's nonce as {@link ApplyPushInput.nonce} consumes it (the arguments of `nonces.consume`). */
export interface PushNonce {
  scope: string;
  value: string;
  /** When the entry may be forgotten (ms). */
  expiresAt: number;
  /** Now (ms): an entry expired by then may be taken over. */
  now: number;
}

export type ApplyPushResult =
  | { ok: true; versions: { key: string; version: number }[]; event: ActivityEvent; pending?: false }
  /**
   * A store that sequences in batches (see `ActivityRepository.sealPending`) stores the event as
   * pending: the draft, sealed by a later `sealPending` of the organization.
   */
  | {
      ok: true;
      versions: { key: string; version: number }[];
      event: ActivityDraft;
      pending: true;
      /** How the store knows the pending event, handed back to its `sealPending` by the push's process. */
      stored?: PendingEvent;
    }
  | { ok: false; conflicts: Extract<PushPlan, { ok: false }>['conflicts']; replayed?: false }
  /** The input's `nonce` was seen before: nothing was written. */
  | { ok: false; replayed: true };

export interface SecretRepository {
  /**
   * One compare-and-set over all keys of the push. Under a lock on the environment (or the keys),
   * read the heads of the pushed keys, call `planPush` from `@latchkey/core/store`, and either write
   * every planned version plus the success event `pushEvent` builds (sealed into the organization's
   * chain, or pending), or, on any mismatch, write nothing at all and return the conflicts. Concurrent pushes to the same keys must
   * serialise: exactly one of N pushes with the same `if_version` succeeds. In the same transaction
   * it writes one version row per planned write (`versionRows` of the writes and the event's draft)
   * and drops the value of each written key's versions up to `prunedThrough(version, versionsKept)`;
   * a conflict writes no version row either.
   */
  applyPush(input: ApplyPushInput): Promise<ApplyPushResult>;
  /**
   * A page of one key's versions, newest first: those below `beforeVersion` when given, at most
   * `limit`. Empty for a key never pushed.
   */
  listVersions(
    environmentId: string,
    key: string,
    page: { beforeVersion?: number | undefined; limit: number },
  ): Promise<StoredSecretVersion[]>;
  /**
   * Every version of every key of the environment, by key (in code-unit order) then version (for
   * backups); with `page`, only those after `page.after` in that order, at most `page.limit`: a
   * keyset walk a backup reads a page at a time instead of the whole history at once.
   */
  listAllVersions(
    environmentId: string,
    page?: { after?: { key: string; version: number } | undefined; limit: number },
  ): Promise<StoredSecretVersion[]>;
  /**
   * For the re-encrypt routine, as `scanValues` over the kept values of versions: ordered by
   * environment id, key, then version, after `after` when given, at most `limit`.
   */
  scanVersionValues(after: StoredVersionRef | null, limit: number): Promise<StoredVersionValue[]>;
  /** As `replaceValues`, for kept values of versions: each only where it still is `from`. */
  replaceVersionValues(changes: readonly StoredVersionValueChange[]): Promise<number>;
  /**
   * The live (non-deleted) head of every key of the environment, sorted by key (in code-unit
   * order); with `page`, only the keys after `page.afterKey`, at most `page.limit`.
   */
  listLive(
    environmentId: string,
    page?: { afterKey?: string | undefined; limit: number },
  ): Promise<SecretVersion[]>;
  /**
   * The keys of the environment whose head is a tombstone, with its version, sorted by key (in
   * code-unit order; for backups); with `page`, only the keys after `page.afterKey`, at most
   * `page.limit`.
   */
  listTombstones(
    environmentId: string,
    page?: { afterKey?: string | undefined; limit: number },
  ): Promise<{ key: string; version: number; updated_at: string }[]>;
  /**
   * For the re-encrypt routine: the stored value of every live key of every environment, ordered by
   * environment id then key (in the store's own stable order), after `after` when given, at most
   * `limit`: a keyset walk that sees every key once.
   */
  scanValues(after: StoredValueRef | null, limit: number): Promise<StoredValue[]>;
  /**
   * Replaces stored values, each only where the key's value still is `from` (a push in between
   * wins); returns how many were replaced. Versions and `updated_at` are left as they are.
   */
  replaceValues(changes: readonly StoredValueChange[]): Promise<number>;
}

/** A key of an environment. */
export interface StoredValueRef {
  environmentId: string;
  key: string;
}

/** A key's value as stored (sealed, or as sent when stored without a keyring). */
export interface StoredValue extends StoredValueRef {
  value: string;
}

/** A stored value to replace, if it is still `from`. */
export interface StoredValueChange extends StoredValueRef {
  from: string;
  to: string;
}

/** A version of a key of an environment. */
export interface StoredVersionRef extends StoredValueRef {
  version: number;
}

/** A version's kept value as stored. */
export interface StoredVersionValue extends StoredVersionRef {
  value: string;
}

/** A version's kept value to replace, if it is still `from`. */
export interface StoredVersionValueChange extends StoredVersionRef {
  from: string;
  to: string;
}
