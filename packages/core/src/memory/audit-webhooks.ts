import type { AuditWebhook } from '../model/model.js';
import type { AuditWebhookRepository, WebhookCredentials } from '../store/ports/audit-webhooks.js';
import { journaledDelete } from './journaled.js';
import { clone, type Journal, type MemoryState, notifyDeliveryWatchers } from './state.js';

/** A webhook as stored: the scheme and the previous secret always set, as the SQL columns are. */
const withDefaults = (webhook: AuditWebhook): AuditWebhook => ({
  ...webhook,
  signature_scheme: webhook.signature_scheme ?? 'latchkey',
  previous_secret: webhook.previous_secret ?? null,
});

/** Finding a stored webhook within its organization, and changing its fields with their undo. */
function webhookAccess(state: MemoryState, journal: Journal) {
  const find = (organizationId: string, id: string) => {
    const webhook = state.webhooks.get(id);
    return webhook && webhook.organization_id === organizationId ? webhook : null;
  };
  const change = (webhook: AuditWebhook, patch: Partial<AuditWebhook>) => {
    const before = clone(webhook);
    Object.assign(webhook, patch);
    // Restored whole: a field the patch added (headers on an older record) goes too.
    journal?.push(() => {
      for (const key of Object.keys(webhook))
        delete (webhook as Partial<AuditWebhook>)[key as keyof AuditWebhook];
      Object.assign(webhook, before);
    });
  };
  return { find, change };
}

/** Whether the webhook's stored credentials are `from` (absent fields read as none). */
const sameCredentials = (webhook: AuditWebhook, from: WebhookCredentials) =>
  JSON.stringify({
    headers: webhook.headers ?? [],
    client_certificate: webhook.client_certificate ?? null,
  }) === JSON.stringify(from);

/** Audit webhooks in memory. */
export function memoryAuditWebhooks(state: MemoryState, journal: Journal): AuditWebhookRepository {
  const { find, change } = webhookAccess(state, journal);
  return {
    async create(webhook, max) {
      const ids = state.webhooksByOrg.get(webhook.organization_id) ?? [];
      if (max !== undefined && ids.length >= max) return 'limit';
      state.webhooks.set(webhook.id, withDefaults(clone(webhook)));
      ids.push(webhook.id);
      state.webhooksByOrg.set(webhook.organization_id, ids);
      journal?.push(() => {
        state.webhooks.delete(webhook.id);
        ids.pop();
      });
      return 'created';
    },
    async get(organizationId, id) {
      const webhook = find(organizationId, id);
      return webhook ? clone(webhook) : null;
    },
    async list(organizationId) {
      return (state.webhooksByOrg.get(organizationId) ?? []).map((id) => clone(state.webhooks.get(id)!));
    },
    async organizationIds() {
      return [...state.webhooksByOrg.keys()].sort();
    },
    async update(organizationId, id, changes) {
      const webhook = find(organizationId, id);
      if (!webhook) return null;
      change(webhook, clone(changes));
      return clone(webhook);
    },
    async setSecret(organizationId, id, secretSealed, previous) {
      const webhook = find(organizationId, id);
      if (!webhook) return null;
      change(webhook, { secret_sealed: secretSealed, previous_secret: previous ? { ...previous } : null });
      return clone(webhook);
    },
    async replaceSecret(organizationId, id, from, to) {
      const webhook = find(organizationId, id);
      if (!webhook || webhook.secret_sealed !== from) return false;
      change(webhook, { secret_sealed: to });
      return true;
    },
    async replaceCredentials(organizationId, id, from, to) {
      const webhook = find(organizationId, id);
      if (!webhook || !sameCredentials(webhook, from)) return false;
      change(webhook, clone(to));
      return true;
    },
    async disable(organizationId, id) {
      const webhook = find(organizationId, id);
      if (!webhook) return null;
      change(webhook, { status: 'disabled' });
      // What was owed is dropped, the replay under way with it.
      journaledDelete(state.replays, id, journal);
      for (const delivery of [...state.deliveries.ofWebhook(id)]) {
        state.deliveries.delete(delivery.id);
        journal?.push(() => state.deliveries.set(delivery.id, delivery));
      }
      return clone(webhook);
    },
    async enable(organizationId, id, at) {
      const webhook = find(organizationId, id);
      if (!webhook) return null;
      change(webhook, { status: 'active', consecutive_failures: 0 });
      let released = 0;
      for (const delivery of [...state.deliveries.ofWebhook(id)]) {
        if (delivery.state !== 'held') continue;
        const before = { ...delivery };
        Object.assign(delivery, { state: 'pending', attempts: 0, next_attempt_at: at, lease_until: null });
        // Set again (and on undo): the outbox files a delivery by its due time.
        state.deliveries.set(delivery.id, delivery);
        journal?.push(() => state.deliveries.set(delivery.id, Object.assign(delivery, before)));
        released++;
      }
      if (released > 0) notifyDeliveryWatchers(state);
      return { webhook: clone(webhook), released };
    },
  };
}
