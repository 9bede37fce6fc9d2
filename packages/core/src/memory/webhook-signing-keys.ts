import type { WebhookSigningKey } from '../model/model.js';
import type { RotationBounds, WebhookSigningKeyRepository } from '../store/ports/webhook-signing-keys.js';
import { journaledAssign, journaledDelete, journaledDeleteWhere, journaledSet } from './journaled.js';
import { byCodeUnits } from './order.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** Webhook signing keys in memory: one map in creation order, each call one synchronous step. */
export function memoryWebhookSigningKeys(state: MemoryState, journal: Journal): WebhookSigningKeyRepository {
  const ofOrg = (organizationId: string) =>
    [...state.signingKeys.values()].filter((key) => key.organization_id === organizationId);
  const current = (organizationId: string) => ofOrg(organizationId).find((key) => key.retires_at === null);
  const insert = (key: WebhookSigningKey) => journaledSet(state.signingKeys, key.id, clone(key), journal);
  const ordered = (organizationId: string) =>
    ofOrg(organizationId).sort(
      (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || byCodeUnits(a.id, b.id),
    );
  /** Refused when the window is full; else cuts earlier retirements to `bounds.at`. */
  const admit = (organizationId: string, bounds: RotationBounds): string | null => {
    const keys = ordered(organizationId);
    const made = keys.filter((key) => Date.parse(key.created_at) > Date.parse(bounds.windowStart));
    if (made.length >= bounds.maxPerWindow) return made[0]!.created_at;
    const at = Date.parse(bounds.at);
    for (const key of keys) {
      if (key.retires_at !== null && Date.parse(key.retires_at) > at) {
        journaledAssign(key, { retires_at: bounds.at }, journal);
      }
    }
    return null;
  };
  /** Deletes the retired keys older than the newest `keep`. */
  const prune = (organizationId: string, bounds: RotationBounds) => {
    const keys = ordered(organizationId);
    const at = Date.parse(bounds.at);
    for (const key of keys.slice(0, Math.max(0, keys.length - bounds.keep))) {
      if (key.retires_at !== null && Date.parse(key.retires_at) <= at) {
        journaledDelete(state.signingKeys, key.id, journal);
      }
    }
  };
  return {
    async list(organizationId) {
      return ordered(organizationId).map(clone);
    },
    async ensureCurrent(key) {
      const kept = current(key.organization_id);
      if (kept) return clone(kept);
      insert(key);
      return clone(key);
    },
    async rotate(next, retiresAt, bounds) {
      const organizationId = next.organization_id;
      if (bounds) {
        const oldestInWindow = admit(organizationId, bounds);
        if (oldestInWindow !== null) return { ok: false, oldestInWindow };
      }
      const old = current(organizationId);
      if (old) journaledAssign(old, { retires_at: retiresAt }, journal);
      insert(next);
      if (bounds) prune(organizationId, bounds);
      return { ok: true, retired: old ? clone(old) : null };
    },
    async insertMany(keys) {
      for (const key of keys) insert(key);
    },
    async deleteAll(organizationId) {
      journaledDeleteWhere(state.signingKeys, (key) => key.organization_id === organizationId, journal);
    },
    async replacePrivateKey(organizationId, id, from, to) {
      const key = state.signingKeys.get(id);
      if (!key || key.organization_id !== organizationId || key.private_key_sealed !== from) return false;
      journaledAssign(key, { private_key_sealed: to }, journal);
      return true;
    },
    async organizationIds() {
      return [...new Set([...state.signingKeys.values()].map((key) => key.organization_id))].sort(
        byCodeUnits,
      );
    },
  };
}
