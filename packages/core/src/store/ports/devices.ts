/** Port: enrolled devices and their Ed25519 public keys. */
import type { Device } from '../../model/model.js';

/** A device belongs to one organization and one user; it is never deleted, only revoked. */
export interface DeviceRepository {
  /** Inserts a device with a fresh (random) id. */
  create(device: Device): Promise<void>;
  get(organizationId: string, id: string): Promise<Device | null>;
  /** Devices of the organization, or only those of `user`. */
  list(organizationId: string, user?: string): Promise<Device[]>;
  /** Marks a device revoked; returns it, or null when absent in that organization. Idempotent. */
  revoke(organizationId: string, id: string, at: string): Promise<Device | null>;
  /** Revokes every active device of `user` in the organization; returns how many. */
  revokeAllOf(organizationId: string, user: string, at: string): Promise<number>;
}
