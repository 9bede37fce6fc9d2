import type { WebhookSigningKey } from '../../model.js';
import type { WebhookSigningKeyRepository } from '../ports/webhook-signing-keys.js';
import { journaledAssign, journaledDeleteWhere, journaledSet } from './journaled.js';
import { byCodeUnits } from './order.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** Webhook signing keys in memory: one map in creation order, each call one synchronous step. */
export function memoryWebhookSigningKeys(state: MemoryState, journal: Journal): WebhookSigningKeyRepository {
  const ofOrg = (organizationId: string) =>
    [...state.signingKeys.values()].filter((key) => key.organization_id === organizationId);
  const current = (organizationId: string) => ofOrg(organizationId).find((key) => key.retires_at === null);
  const insert = (key: WebhookSigningKey) => journaledSet(state.signingKeys, key.id, clone(key), journal);
  return {
    async list(organizationId) {
      return ofOrg(organizationId)
        .sort((a, b) => byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id))
        .map(clone);
    },
    async ensureCurrent(key) {
      const kept = current(key.organization_id);
      if (kept) return clone(kept);
      insert(key);
      return clone(key);
    },
    async rotate(next, retiresAt) {
      const old = current(next.organization_id);
      if (old) journaledAssign(old, { retires_at: retiresAt }, journal);
      insert(next);
      return old ? clone(old) : null;
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
