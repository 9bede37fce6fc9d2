/**
 * Revoking a device: your own, or with devices:manage_all anyone's within your reach. Its pushes are
 * refused from then on.
 */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import { authorize } from '../auth/permissions.js';
import { refuseAbove } from '../auth/refuse-above.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Device } from '../model/model.js';
import type { OrganizationService } from './deps.js';

/**
 * Revokes device `deviceId`, recorded as `device_revoked`. 404 for no such device, and for someone
 * else's without devices:manage_all; 403 `forbidden` for the device of a member ranked above the caller.
 */
export const revokeDevice: OrganizationService<string, Device> = async (deps, acting, deviceId) => {
  const { store } = deps;
  const { principal } = acting;
  const organizationId = acting.organization.id;
  const existing = await store.devices.get(organizationId, deviceId);
  const mayRevoke =
    existing && (existing.user === principal.user || authorize(principal, 'devices:manage_all').ok);
  // Someone else's device answers like a missing one unless you may manage every device.
  if (!existing || !mayRevoke) throw new LatchkeyError('not_found', 'The device was not found.');
  if (existing.user !== principal.user) {
    // devices:manage_all reaches members of your rank and below, never a more privileged one.
    const owner = await store.members.get(organizationId, existing.user);
    if (owner) refuseAbove(principal, owner.role, 'revoke the device of a member whose role is above yours');
  }
  return recordChange(
    store,
    organizationId,
    async (tx) => (await tx.devices.revoke(organizationId, existing.id, acting.at))!,
    (revoked) => actingEvent(deps.ids, acting, 'device_revoked', {}, { device_id: revoked.id }),
  );
};
