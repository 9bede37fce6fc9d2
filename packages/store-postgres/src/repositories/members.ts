import type { Grant, Member, MemberRepository, Role } from '@latchkey/core';
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
    async list(organizationId) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.members} WHERE organization_id = $1 ORDER BY user_id COLLATE "C"`,
        [organizationId],
      );
      return rows.map(toMember);
    },
  };
}
