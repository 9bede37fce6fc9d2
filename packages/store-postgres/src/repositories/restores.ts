import type { RestoreRepository, RestoreSession } from '@latchkey/core';
import { iso, json } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { lockChainHead } from './chain.js';

const PARTS_PER_READ = 4;

const toSession = (r: Record<string, unknown>): RestoreSession => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  user: r['user_id'] as string,
  manifest: json(r['manifest']),
  force: r['force'] as boolean,
  created_at: iso(r['created_at']),
  expires_at: iso(r['expires_at']),
});

/** Staged restores and the bulk writes that apply them, on SQL. */
export function sqlRestores(db: Runner, t: Tables): RestoreRepository {
  const idTables = {
    project: t.projects,
    environment: t.environments,
    device: t.devices,
    audit_webhook: t.webhooks,
  };
  return {
    async begin(session, now) {
      return db.atomic(async (q) => {
        await q.query(`DELETE FROM ${t.restoreSessions} WHERE expires_at <= $1`, [now]);
        // One per organization (a unique index): of two begins at once, the second waits for the
        // first to commit, inserts nothing, and reads the first's session.
        const { rows } = await q.query(
          `INSERT INTO ${t.restoreSessions} (id, organization_id, user_id, manifest, force, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (organization_id) DO NOTHING RETURNING id`,
          [
            session.id,
            session.organization_id,
            session.user,
            JSON.stringify(session.manifest),
            session.force,
            session.created_at,
            session.expires_at,
          ],
        );
        if (rows.length > 0) return null;
        const open = await q.query(
          `SELECT id, organization_id, user_id, manifest, force, created_at, expires_at
           FROM ${t.restoreSessions} WHERE organization_id = $1`,
          [session.organization_id],
        );
        return open.rows[0] ? toSession(open.rows[0]) : null;
      });
    },
    async get(organizationId, id, now) {
      // FOR UPDATE: inside a unit of work, a second commit of the same session waits, then finds it gone.
      const { rows } = await db.query(
        `SELECT id, organization_id, user_id, manifest, force, created_at, expires_at
         FROM ${t.restoreSessions} WHERE id = $1 AND organization_id = $2 AND expires_at > $3 FOR UPDATE`,
        [id, organizationId, now],
      );
      return rows[0] ? toSession(rows[0]) : null;
    },
    async putPart(sessionId, index, data, bytes, maxBytes) {
      return db.atomic(async (q) => {
        // The session's row, locked, holds the running total: parts sent at once take turns.
        const session = await q.query<{ bytes: string }>(
          `SELECT bytes FROM ${t.restoreSessions} WHERE id = $1 FOR UPDATE`,
          [sessionId],
        );
        if (!session.rows[0]) return null;
        const before = await q.query<{ bytes: string }>(
          `SELECT bytes FROM ${t.restoreParts} WHERE session_id = $1 AND part = $2`,
          [sessionId, index],
        );
        const total = Number(session.rows[0].bytes) - Number(before.rows[0]?.bytes ?? 0) + bytes;
        if (total > maxBytes) return total;
        await q.query(
          `INSERT INTO ${t.restoreParts} (session_id, part, data, bytes) VALUES ($1, $2, $3, $4)
           ON CONFLICT (session_id, part) DO UPDATE SET data = EXCLUDED.data, bytes = EXCLUDED.bytes`,
          [sessionId, index, data, bytes],
        );
        await q.query(`UPDATE ${t.restoreSessions} SET bytes = $2 WHERE id = $1`, [sessionId, total]);
        return total;
      });
    },
    async partStats(sessionId) {
      const { rows } = await db.query<{ count: number; max: number }>(
        `SELECT count(*)::int AS count, coalesce(max(part), -1)::int AS max
         FROM ${t.restoreParts} WHERE session_id = $1`,
        [sessionId],
      );
      return { count: Number(rows[0]!.count), maxIndex: Number(rows[0]!.max) };
    },
    async *parts(sessionId) {
      let after = -1;
      for (;;) {
        const { rows } = await db.query<{ part: number; data: string }>(
          `SELECT part, data FROM ${t.restoreParts} WHERE session_id = $1 AND part > $2
           ORDER BY part LIMIT ${PARTS_PER_READ}`,
          [sessionId, after],
        );
        for (const row of rows) yield row.data;
        if (rows.length < PARTS_PER_READ) return;
        after = Number(rows.at(-1)!.part);
      }
    },
    async end(sessionId) {
      await db.query(`DELETE FROM ${t.restoreSessions} WHERE id = $1`, [sessionId]);
    },
    async clearOrganization(organizationId) {
      await db.atomic(async (q) => {
        // The chain head stays locked until the restore commits: appends wait, then build on the restored chain.
        await lockChainHead(q, t, organizationId);
        // Each by an indexed column: webhook ids for the delivery tables, project ids for environments.
        const webhooks = `SELECT id FROM ${t.webhooks} WHERE organization_id = $1`;
        for (const table of [t.attempts, t.rollups, t.totals, t.deliveries]) {
          await q.query(`DELETE FROM ${table} WHERE webhook_id IN (${webhooks})`, [organizationId]);
        }
        const projects = `SELECT id FROM ${t.projects} WHERE organization_id = $1`;
        const environments = `SELECT id FROM ${t.environments} WHERE project_id IN (${projects})`;
        await q.query(`DELETE FROM ${t.secrets} WHERE environment_id IN (${environments})`, [organizationId]);
        await q.query(`DELETE FROM ${t.environments} WHERE project_id IN (${projects})`, [organizationId]);
        for (const table of [t.webhooks, t.projects, t.members, t.devices, t.events]) {
          await q.query(`DELETE FROM ${table} WHERE organization_id = $1`, [organizationId]);
        }
        await q.query(`UPDATE ${t.chains} SET seq = 0, hash = '' WHERE organization_id = $1`, [
          organizationId,
        ]);
      });
    },
    async takenIds(kind, ids) {
      if (ids.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM ${idTables[kind]} WHERE id = ANY($1::text[])`,
        [ids],
      );
      return new Set(rows.map((r) => r.id));
    },
    async insertSecrets(secrets) {
      if (secrets.length === 0) return;
      await db.query(
        `INSERT INTO ${t.secrets} (environment_id, key, version, deleted, value, updated_at)
         SELECT e, k, v, val IS NULL, val, u
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[]) AS s(e, k, v, val, u)`,
        [
          secrets.map((s) => s.environment_id),
          secrets.map((s) => s.key),
          secrets.map((s) => s.version),
          secrets.map((s) => s.value),
          secrets.map((s) => s.updated_at),
        ],
      );
    },
    async insertEvents(organizationId, events) {
      if (events.length === 0) return;
      const last = events.at(-1)!;
      await db.query(
        `WITH stored AS (
           INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
           SELECT $1, s, i, ty, p, e, o, b
           FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])
             AS u(s, i, ty, p, e, o, b)
         )
         INSERT INTO ${t.chains} (organization_id, seq, hash) VALUES ($1, $9, $10)
         ON CONFLICT (organization_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash`,
        [
          organizationId,
          events.map((e) => e.seq),
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.project ?? null),
          events.map((e) => e.environment ?? null),
          events.map((e) => e.occurred_at),
          events.map((e) => JSON.stringify(e)),
          last.seq,
          last.hash,
        ],
      );
    },
  };
}
