import type { Device, DeviceRepository } from '@latchkey/core/store';
import { recordColumns, text, timestamp, timestampOrNull } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import { iso } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';

export const DEVICE = recordColumns<Device>({
  id: text(),
  organization_id: text(),
  user: text('user_id'),
  name: text(),
  public_key: text(),
  status: text<Device['status']>(),
  created_at: timestamp(),
  revoked_at: timestampOrNull(),
  // Only a workload's ephemeral devices expire; absent (not null) for enrolled ones.
  expires_at: {
    read: (value) => (value === null || value === undefined ? undefined : iso(value)),
    write: (value) => value ?? null,
  },
});

/** A device's row (or its JSON object) as the record. */
export const toDevice = DEVICE.read;

/** Devices on SQL. */
export function sqlDevices(db: Runner, t: Tables): DeviceRepository {
  const devices = recordTable(db, t.devices, DEVICE);
  return {
    create: (device) => devices.insert(device),
    get: (organizationId, id) => devices.find('organization_id = $1 AND id = $2', [organizationId, id]),
    list: (organizationId, user) =>
      user === undefined
        ? devices.list('organization_id = $1 ORDER BY created_at, id', [organizationId])
        : devices.list('organization_id = $1 AND user_id = $2 ORDER BY created_at, id', [
            organizationId,
            user,
          ]),
    async revokeAllOf(organizationId, user, at) {
      const { rowCount } = await db.query(
        `UPDATE ${t.devices} SET status = 'revoked', revoked_at = $3
         WHERE organization_id = $1 AND user_id = $2 AND status <> 'revoked'`,
        [organizationId, user, at],
      );
      return rowCount;
    },
    revoke: (organizationId, id, at) =>
      devices.update(
        "status = 'revoked', revoked_at = COALESCE(revoked_at, $3)",
        'organization_id = $1 AND id = $2',
        [organizationId, id, at],
      ),
  };
}
