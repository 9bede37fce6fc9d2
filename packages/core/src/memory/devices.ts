import type { DeviceRepository } from '../store/ports/devices.js';
import { journaledAssign, journaledSet } from './journaled.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Devices in memory. */
export function memoryDevices(state: MemoryState, journal: Journal): DeviceRepository {
  return {
    async create(device) {
      journaledSet(state.devices, device.id, copy(device), journal);
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
      const live = [...state.devices.values()].filter(
        (d) => d.organization_id === organizationId && d.user === user && d.status !== 'revoked',
      );
      for (const device of live) journaledAssign(device, { status: 'revoked', revoked_at: at }, journal);
      return live.length;
    },
    async revoke(organizationId, id, at) {
      const device = state.devices.get(id);
      if (!device || device.organization_id !== organizationId) return null;
      if (device.status !== 'revoked')
        journaledAssign(device, { status: 'revoked', revoked_at: at }, journal);
      return copy(device);
    },
  };
}
