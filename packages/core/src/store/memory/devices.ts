import type { DeviceRepository } from '../ports/devices.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Devices in memory. */
export function memoryDevices(state: MemoryState, journal: Journal): DeviceRepository {
  return {
    async create(device) {
      state.devices.set(device.id, copy(device));
      journal?.push(() => state.devices.delete(device.id));
    },
    async get(organizationId, id) {
      const device = state.devices.get(id);
      return device && device.organization_id === organizationId ? copy(device) : null;
    },
    async list(organizationId, user) {
      return [...state.devices.values()]
        .filter((d) => d.organization_id === organizationId && (user === undefined || d.user === user))
        .map(copy);
    },
    async revokeAllOf(organizationId, user, at) {
      let revoked = 0;
      for (const device of state.devices.values()) {
        if (device.organization_id !== organizationId || device.user !== user || device.status === 'revoked')
          continue;
        device.status = 'revoked';
        device.revoked_at = at;
        journal?.push(() => {
          device.status = 'active';
          device.revoked_at = null;
        });
        revoked++;
      }
      return revoked;
    },
    async revoke(organizationId, id, at) {
      const device = state.devices.get(id);
      if (!device || device.organization_id !== organizationId) return null;
      if (device.status !== 'revoked') {
        device.status = 'revoked';
        device.revoked_at = at;
        journal?.push(() => {
          device.status = 'active';
          device.revoked_at = null;
        });
      }
      return copy(device);
    },
  };
}
