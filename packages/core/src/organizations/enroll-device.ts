/** Enrolling a device: an Ed25519 public key, owned by the member who enrolls it. */
import { actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import type { Device } from '../model/model.js';
import { enrollmentKey } from '../secrets/enrollment-key.js';
import type { OrganizationService } from './deps.js';

/**
 * Enrolls device `input.name` with public key `input.public_key` (400 when it is not an Ed25519 key)
 * for the acting member, recorded as `device_enrolled`.
 */
export const enrollDevice: OrganizationService<{ name: string; public_key: string }, Device> = async (
  deps,
  acting,
  input,
) => {
  const publicKey = enrollmentKey(input.public_key);
  const device: Device = {
    id: deps.ids('dev'),
    organization_id: acting.organization.id,
    user: acting.principal.user,
    name: input.name,
    public_key: publicKey,
    status: 'active',
    created_at: acting.at,
    revoked_at: null,
  };
  await recordChange(
    deps.store,
    acting.organization.id,
    (tx) => tx.devices.create(device),
    () => actingEvent(deps.ids, acting, 'device_enrolled', { name: device.name }, { device_id: device.id }),
  );
  return device;
};
