/** The devices a caller may see: their own, or every member's with devices:manage_all. */
import type { Acting } from '../activity/acting.js';
import { authorize } from '../auth/permissions.js';
import type { Device } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';

/** The acting organization's devices the caller may see (see the file's summary). */
export function listDevices(
  store: LatchkeyStore,
  acting: Pick<Acting, 'principal' | 'organization'>,
): Promise<Device[]> {
  const all = authorize(acting.principal, 'devices:manage_all').ok;
  return store.devices.list(acting.organization.id, all ? undefined : acting.principal.user);
}
