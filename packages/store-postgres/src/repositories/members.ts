import type { Grant, Member, MemberChange, MemberRepository, Role } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { namedRecords } from '../named-records.js';
import { jsonb, recordColumns, text, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

const MEMBER = recordColumns<Member>({
  organization_id: text(),
  user: text('user_id'),
  role: text<Role>(),
  grants: jsonb<Grant[]>(),
  created_at: timestamp(),
});

/** A member's row (or its JSON object) as the record. */
export const toMember = MEMBER.read;

const ONE = 'organization_id = $1 AND user_id = $2';

/**
 * Locks the organization's owners (in a fixed order, so concurrent owner changes queue instead of
 * deadlocking), then the member; says whether the member exists and how many owners there are.
 */
async function lockForChange(q: SqlQueryable, t: Tables, organizationId: string, user: string) {
  const owners = await q.query(
    `SELECT user_id FROM ${t.members} WHERE organization_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    [organizationId],
  );
  const before = await recordTable(q, t.members, MEMBER).find(`${ONE} FOR UPDATE`, [organizationId, user]);
  return { before, owners: owners.rows.length };
}

/** Members on SQL, unique by (organization, user); grants kept as JSON. */
export function sqlMembers(db: Runner, t: Tables): MemberRepository {
  const members = recordTable(db, t.members, MEMBER);
  return {
    ...namedRecords(members, 'organization_id', 'user_id'),
    update(organizationId, user, patch) {
      return db.atomic(async (q): Promise<MemberChange> => {
        const { before, owners } = await lockForChange(q, t, organizationId, user);
        if (!before) return { ok: false, reason: 'not_found' };
        const role = patch.role ?? before.role;
        if (before.role === 'owner' && role !== 'owner' && owners <= 1)
          return { ok: false, reason: 'last_owner' };
        const member = await recordTable(q, t.members, MEMBER).update('role = $3, grants = $4::jsonb', ONE, [
          organizationId,
          user,
          role,
          JSON.stringify(patch.grants ?? before.grants),
        ]);
        return { ok: true, before, member: member! };
      });
    },
    remove(organizationId, user) {
      return db.atomic(async (q): Promise<MemberChange> => {
        const { before, owners } = await lockForChange(q, t, organizationId, user);
        if (!before) return { ok: false, reason: 'not_found' };
        if (before.role === 'owner' && owners <= 1) return { ok: false, reason: 'last_owner' };
        await q.query(`DELETE FROM ${t.members} WHERE ${ONE}`, [organizationId, user]);
        return { ok: true, before, member: before };
      });
    },
    list: (organizationId) =>
      members.list('organization_id = $1 ORDER BY user_id COLLATE "C"', [organizationId]),
  };
}
