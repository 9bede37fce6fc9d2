import type { PortalCapability, PortalSession, PortalSessionRepository } from '@latchkey/core/store';
import {
  type Column,
  flag,
  recordColumns,
  text,
  textArray,
  timestamp,
  timestampOrNull,
} from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const SESSION = recordColumns<PortalSession>({
  id: text(),
  organization_id: text(),
  user: text('user_id'),
  created_by: text(),
  token_hash: text(),
  capabilities: textArray() as Column<string[]> as Column<PortalCapability[]>,
  read_only: flag(),
  origin: text(),
  created_at: timestamp(),
  expires_at: timestamp(),
  revoked_at: timestampOrNull(),
});

const LIVE = 'revoked_at IS NULL AND expires_at > $2';

/**
 * Portal sessions on SQL, looked up by the unique index on their token's hash. A create locks the
 * organization's row first, so the live count it checks cannot change before its insert.
 */
export function sqlPortalSessions(db: Runner, t: Tables): PortalSessionRepository {
  const sessions = recordTable(db, t.portalSessions, SESSION);
  return {
    create: (session, max, nowIso) =>
      db.atomic(async (q) => {
        const org = session.organization_id;
        await q.query(`SELECT 1 FROM ${t.organizations} WHERE id = $1 FOR UPDATE`, [org]);
        await q.query(`DELETE FROM ${t.portalSessions} WHERE organization_id = $1 AND NOT (${LIVE})`, [
          org,
          nowIso,
        ]);
        const { rows } = await q.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${t.portalSessions} WHERE organization_id = $1`,
          [org],
        );
        if (Number(rows[0]!.n) >= max) return 'limit';
        await recordTable(q, t.portalSessions, SESSION).insert(session);
        return 'created';
      }),
    findByHash: (tokenHash) => sessions.find('token_hash = $1', [tokenHash]),
    get: (id) => sessions.find('id = $1', [id]),
    listLive: (organizationId, nowIso, user) =>
      user === undefined
        ? sessions.list(`organization_id = $1 AND ${LIVE} ORDER BY created_at, id`, [organizationId, nowIso])
        : sessions.list(`organization_id = $1 AND ${LIVE} AND user_id = $3 ORDER BY created_at, id`, [
            organizationId,
            nowIso,
            user,
          ]),
    revoke: (organizationId, id, at) =>
      sessions.update('revoked_at = $2', `organization_id = $1 AND ${LIVE} AND id = $3`, [
        organizationId,
        at,
        id,
      ]),
    async revokeAllOf(organizationId, user, at) {
      const { rows } = await db.query<{ id: string }>(
        `WITH ended AS (
           UPDATE ${t.portalSessions} SET revoked_at = $2
           WHERE organization_id = $1 AND ${LIVE} AND user_id = $3 RETURNING id, created_at)
         SELECT id FROM ended ORDER BY created_at, id`,
        [organizationId, at, user],
      );
      return rows.map((r) => r.id);
    },
  };
}
