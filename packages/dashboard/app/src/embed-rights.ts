/**
 * What an embedded portal session opens: its sections (Audit Webhooks with `audit_webhooks:read`
 * or `:manage`, Activity with `activity:read`, Change requests with `changes:review`) and the
 * actions its capabilities allow. A read-only session offers no write at all; the API refuses
 * writes made with its token too. A portal token is never shown a secret value, and never applies
 * or cancels a change request (a signing device's acts).
 */
import type { Rights } from './rights.js';
import type { PortalSession } from './types.js';

/** A section of the embedded page. */
export type EmbedSection = 'audit-webhooks' | 'activity' | 'changes';

/** The sections `session` opens, in the order they are shown. */
export function embedSections(session: PortalSession): EmbedSection[] {
  const has = (capability: string) => session.capabilities.includes(capability);
  const sections: EmbedSection[] = [];
  if (has('audit_webhooks:read') || has('audit_webhooks:manage')) sections.push('audit-webhooks');
  if (has('activity:read')) sections.push('activity');
  if (has('changes:review')) sections.push('changes');
  return sections;
}

/** The actions `session` allows, on top of its member's role. */
export function portalRights(session: PortalSession): Rights {
  const has = (capability: string) => session.capabilities.includes(capability);
  const writes = !session.read_only;
  return {
    manageWebhooks: writes && has('audit_webhooks:manage'),
    webhookSecrets: writes && has('audit_webhooks:manage') && has('audit_webhooks:secrets'),
    exportActivity: has('activity:export'),
    // The witness list is outside every portal capability.
    listWitnesses: false,
    reviewChanges: writes && has('changes:review'),
    applyChanges: false,
    secretValues: false,
  };
}
