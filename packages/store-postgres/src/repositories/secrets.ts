import {
  type ApplyPushInput,
  type ApplyPushResult,
  causingTraceparent,
  DEFAULT_SECRET_VERSIONS_KEPT,
  type KeyHead,
  planPush,
  pushEvent,
  type SecretRepository,
  versionRows,
} from '@latchkey/core/store';
import { type SqlQueryable, sendDeferred } from '../driver.js';
import { int, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { afterConsume, consumeNonceSql } from './nonces.js';
import { storePendingStatement } from './seal.js';
import { sqlSecretVersions, versionParams, versionStatement } from './secret-versions.js';

type HeadRow = { key: string; version: unknown; deleted: boolean };

/** The locked heads, and the position the push's pending event takes when the lock told it. */
interface Locked {
  rows: HeadRow[];
  position: number | null;
}

/**
 * Consumes the push's nonce and locks the heads of `keys` (sorted) in one statement, which also
 * numbers the push's pending event (its `n`, so that this process's seal can name it without
 * reading it back); null when the nonce was seen before (nothing is locked for the push then, and
 * nothing written). A key pushed for the first time has no row to lock yet: a placeholder (version
 * 0, read as "no such key") is inserted first, which concurrent pushes then queue on.
 */
async function lockHeads(
  tx: SqlQueryable,
  t: Tables,
  input: ApplyPushInput,
  keys: string[],
): Promise<Locked | null> {
  const select = `SELECT key, version, deleted FROM ${t.secrets}
     WHERE environment_id = $1 AND key = ANY($2::text[]) ORDER BY key FOR UPDATE`;
  let rows: HeadRow[];
  let position: number | null = null;
  const { nonce } = input;
  if (nonce) {
    // The nonce's CTE runs whether or not its rows are read; the heads' lock joins a one-row select
    // so the statement answers even when no key has a row yet. The position is an init plan: one
    // number for the statement, whatever rows it answers.
    const result = await tx.query<HeadRow & { fresh: boolean; position: unknown }>(
      `WITH consumed AS (${consumeNonceSql(t, 3)}), locked AS (${select})
       SELECT EXISTS (SELECT 1 FROM consumed) AS fresh,
         (SELECT nextval('${t.pendingEventsOrder}'::regclass)) AS position, l.key, l.version, l.deleted
       FROM (SELECT 1) AS one LEFT JOIN locked l ON true`,
      [input.environmentId, keys, nonce.scope, nonce.value, nonce.expiresAt, nonce.now],
    );
    await afterConsume(tx, t, nonce.now);
    if (!result.rows[0]?.fresh) return null;
    position = int(result.rows[0].position);
    rows = result.rows.filter((r) => r.key !== null);
  } else {
    ({ rows } = await tx.query<HeadRow>(select, [input.environmentId, keys]));
  }
  if (rows.length === keys.length) return { rows, position };
  const found = new Set(rows.map((r) => r.key));
  const missing = keys.filter((key) => !found.has(key));
  await tx.query(
    `INSERT INTO ${t.secrets} (environment_id, key, version, deleted, value, updated_at)
     SELECT $1, k, 0, true, NULL, $3 FROM unnest($2::text[]) AS k
     ON CONFLICT (environment_id, key) DO NOTHING`,
    [input.environmentId, missing, input.now],
  );
  const added = await tx.query<HeadRow>(select, [input.environmentId, missing]);
  return { rows: [...rows, ...added.rows], position };
}

/**
 * Applies one push inside a transaction: consume the nonce and lock the heads, plan, write every
 * version and the event, or nothing.
 */
async function applyPush(tx: SqlQueryable, t: Tables, input: ApplyPushInput): Promise<ApplyPushResult> {
  // Sorted, so two pushes touching the same keys lock them in the same order and cannot deadlock.
  const keys = [...new Set(input.changes.map((c) => c.key))].sort();
  const locked = await lockHeads(tx, t, input, keys);
  if (locked === null) return { ok: false, replayed: true };
  const heads = new Map<string, KeyHead>();
  for (const row of locked.rows) {
    const version = int(row.version);
    if (version > 0) heads.set(row.key, { version, deleted: row.deleted });
  }
  const plan = planPush(heads, input.changes, input.force);
  if (!plan.ok) return { ok: false, conflicts: plan.conflicts };
  // The event is stored as pending: no chain head lock here; the sequencer seals it after the commit.
  const draft = pushEvent(plan, input.eventTemplate);
  const kept = input.versionsKept ?? DEFAULT_SECRET_VERSIONS_KEPT;
  const json = JSON.stringify(draft);
  const traceparent = causingTraceparent();
  const params = [
    input.organizationId,
    draft.id,
    json,
    traceparent,
    input.now,
    plan.writes.map((w) => w.key),
    plan.writes.map((w) => w.version),
    plan.writes.map((w) => w.value),
    input.environmentId,
    ...versionParams(versionRows(plan.writes, draft)[0], kept),
    locked.position,
  ];
  // The heads, their version rows and pruning, and the pending event in one statement, sent with
  // the COMMIT: its answer says nothing the push needs (the heads are locked, so it cannot miss).
  await sendDeferred(
    tx,
    storePendingStatement(
      t,
      `written AS (
        UPDATE ${t.secrets} AS s SET version = w.version, deleted = w.value IS NULL, value = w.value, updated_at = $5
        FROM unnest($6::text[], $7::int[], $8::text[]) AS w(key, version, value)
        WHERE s.environment_id = $9 AND s.key = ANY($6::text[]) AND s.key = w.key
      ), ${versionStatement(t, 6)}`,
      16,
    ),
    params,
    { genericPlan: true },
  );
  return {
    ok: true,
    versions: plan.writes.map((w) => ({ key: w.key, version: w.version })),
    event: draft,
    pending: true,
    ...(locked.position === null ? {} : { stored: { position: locked.position, draft: json, traceparent } }),
  };
}

/** Secret heads on SQL. */
export function sqlSecrets(db: Runner, t: Tables): SecretRepository {
  return {
    ...sqlSecretVersions(db, t),
    applyPush(input) {
      return db.atomic((tx) => applyPush(tx, t, input));
    },
    async listLive(environmentId, page) {
      const { rows } = await db.query<{ key: string; version: unknown; value: string; updated_at: unknown }>(
        `SELECT key, version, value, updated_at FROM ${t.secrets}
         WHERE environment_id = $1 AND version > 0 AND NOT deleted
           AND ($2::text IS NULL OR key COLLATE "C" > $2::text)
         ORDER BY key COLLATE "C" LIMIT $3::int`,
        [environmentId, page?.afterKey ?? null, page?.limit ?? null],
      );
      return rows.map((r) => ({
        key: r.key,
        version: int(r.version),
        value: r.value,
        updated_at: iso(r.updated_at),
      }));
    },
    async listTombstones(environmentId, page) {
      const { rows } = await db.query<{ key: string; version: unknown; updated_at: unknown }>(
        `SELECT key, version, updated_at FROM ${t.secrets}
         WHERE environment_id = $1 AND version > 0 AND deleted
           AND ($2::text IS NULL OR key COLLATE "C" > $2::text)
         ORDER BY key COLLATE "C" LIMIT $3::int`,
        [environmentId, page?.afterKey ?? null, page?.limit ?? null],
      );
      return rows.map((r) => ({ key: r.key, version: int(r.version), updated_at: iso(r.updated_at) }));
    },
    async scanValues(after, limit) {
      // Keyset order on the primary key (environment_id, key): an index scan that stops at the limit.
      const { rows } = await db.query<{ environment_id: string; key: string; value: string }>(
        `SELECT environment_id, key, value FROM ${t.secrets}
         WHERE version > 0 AND NOT deleted AND value IS NOT NULL
           AND ($1::text IS NULL OR (environment_id, key) > ($1::text, $2::text))
         ORDER BY environment_id, key LIMIT $3`,
        [after?.environmentId ?? null, after?.key ?? null, limit],
      );
      return rows.map((r) => ({ environmentId: r.environment_id, key: r.key, value: r.value }));
    },
    async replaceValues(changes) {
      if (changes.length === 0) return 0;
      const result = await db.query(
        `UPDATE ${t.secrets} AS s SET value = c.to_value
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS c(environment_id, key, from_value, to_value)
         WHERE s.environment_id = c.environment_id AND s.key = c.key AND s.value = c.from_value`,
        [
          changes.map((c) => c.environmentId),
          changes.map((c) => c.key),
          changes.map((c) => c.from),
          changes.map((c) => c.to),
        ],
      );
      return result.rowCount ?? 0;
    },
  };
}
