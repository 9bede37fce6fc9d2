import type { Grant, Member, MemberChange, MemberRepository, Role } from '@latchkey/core';
import type { SqlQueryable } from '../driver.js';
import { created, iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'organization_id, user_id, role, grants, created_at';

export const toMember = (r: Record<string, unknown>): Member => ({
  organization_id: r['organization_id'] as string,
  user: r['user_id'] as string,
  role: r['role'] as Role,
  grants: r['grants'] as Grant[],
  created_at: iso(r['created_at']),
});

/**
 * Locks the organization's owners (in a fixed order, so concurrent owner changes queue instead of
 * deadlocking), then the member; says whether the member exists and how many owners there are.
 */
async function lockForChange(q: SqlQueryable, t: Tables, organizationId: string, user: string) {
  const owners = await q.query(
    `SELECT user_id FROM ${t.members} WHERE organization_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    [organizationId],
  );
  const { rows } = await q.query(
    `SELECT ${COLUMNS} FROM ${t.members} WHERE organization_id = $1 AND user_id = $2 FOR UPDATE`,
    [organizationId, user],
  );
  return { before: rows[0] ? toMember(rows[0]) : null, owners: owners.rows.length };
}

/** Members on SQL, unique by (organization, user); grants kept as JSON. */
export function sqlMembers(db: Runner, t: Tables): MemberRepository {
  return {
    async create(member) {
      const { rowCount } = await db.query(
        `INSERT INTO ${t.members} (organization_id, user_id, role, grants, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)
         ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [member.organization_id, member.user, member.role, JSON.stringify(member.grants), member.created_at],
      );
      return created(rowCount);
    },
    async get(organizationId, user) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.members} WHERE organization_id = $1 AND user_id = $2`,
        [organizationId, user],
      );
      return rows[0] ? toMember(rows[0]) : null;
    },
    update(organizationId, user, patch) {
      return db.atomic(async (q): Promise<MemberChange> => {
        const { before, owners } = await lockForChange(q, t, organizationId, user);
        if (!before) return { ok: false, reason: 'not_found' };
        const role = patch.role ?? before.role;
        if (before.role === 'owner' && role !== 'owner' && owners <= 1)
          return { ok: false, reason: 'last_owner' };
        const { rows } = await q.query(
          `UPDATE ${t.members} SET role = $3, grants = $4::jsonb WHERE organization_id = $1 AND user_id = $2
           RETURNING ${COLUMNS}`,
          [organizationId, user, role, JSON.stringify(patch.grants ?? before.grants)],
        );
        return { ok: true, before, member: toMember(rows[0]!) };
      });
    },
    remove(organizationId, user) {
      return db.atomic(async (q): Promise<MemberChange> => {
        const { before, owners } = await lockForChange(q, t, organizationId, user);
        if (!before) return { ok: false, reason: 'not_found' };
        if (before.role === 'owner' && owners <= 1) return { ok: false, reason: 'last_owner' };
        await q.query(`DELETE FROM ${t.members} WHERE organization_id = $1 AND user_id = $2`, [
          organizationId,
          user,
        ]);
        return { ok: true, before, member: before };
      });
    },
    async list(organizationId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.members} WHERE organization_id = $1 ORDER BY user_id COLLATE "C"`,
        [organizationId],
      );
      return rows.map(toMember);
    },
  };
}
