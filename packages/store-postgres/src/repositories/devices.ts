import type { Device, DeviceRepository } from '@latchkey/core';
import { iso, isoOrNull } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

/** Named, never `*`: a column added by a later migration must not change the result of a prepared statement. */
const COLUMNS = 'id, organization_id, user_id, name, public_key, status, created_at, revoked_at';

const toDevice = (r: Record<string, unknown>): Device => ({
  id: r['id'] as string,
  organization_id: r['organization_id'] as string,
  user: r['user_id'] as string,
  name: r['name'] as string,
  public_key: r['public_key'] as string,
  status: r['status'] as Device['status'],
  created_at: iso(r['created_at']),
  revoked_at: isoOrNull(r['revoked_at']),
});

/** Devices on SQL. */
export function sqlDevices(db: Runner, t: Tables): DeviceRepository {
  return {
    async create(device) {
      await db.query(
        `INSERT INTO ${t.devices} (id, organization_id, user_id, name, public_key, status, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          device.id,
          device.organization_id,
          device.user,
          device.name,
          device.public_key,
          device.status,
          device.created_at,
          device.revoked_at,
        ],
      );
    },
    async get(organizationId, id) {
      const { rows } = await db.query(
        `SELECT ${COLUMNS} FROM ${t.devices} WHERE organization_id = $1 AND id = $2`,
        [organizationId, id],
      );
      return rows[0] ? toDevice(rows[0]) : null;
    },
    async list(organizationId, user) {
      const { rows } =
        user === undefined
          ? await db.query(
              `SELECT ${COLUMNS} FROM ${t.devices} WHERE organization_id = $1 ORDER BY created_at, id`,
              [organizationId],
            )
          : await db.query(
              `SELECT ${COLUMNS} FROM ${t.devices} WHERE organization_id = $1 AND user_id = $2 ORDER BY created_at, id`,
              [organizationId, user],
            );
      return rows.map(toDevice);
    },
    async revokeAllOf(organizationId, user, at) {
      const { rowCount } = await db.query(
        `UPDATE ${t.devices} SET status = 'revoked', revoked_at = $3
         WHERE organization_id = $1 AND user_id = $2 AND status <> 'revoked'`,
        [organizationId, user, at],
      );
      return rowCount;
    },
    async revoke(organizationId, id, at) {
      const { rows } = await db.query(
        `UPDATE ${t.devices} SET status = 'revoked', revoked_at = COALESCE(revoked_at, $3)
         WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [organizationId, id, at],
      );
      return rows[0] ? toDevice(rows[0]) : null;
    },
  };
}
