/** A workload identity as answers and events show it, and the check of its issuer at create. */

import type { WebhookSettings } from '../delivery/config.js';
import { vetTarget } from '../delivery/sending/ssrf.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { WorkloadIdentity } from '../model/workload.js';
import type { TrustedIssuers } from './trusted-issuers.js';

/** The identity as answers show it (all of it but the organization: nothing in it is secret). */
export function toWorkloadIdentityView(identity: WorkloadIdentity) {
  return {
    id: identity.id,
    name: identity.name,
    issuer: identity.issuer,
    audience: identity.audience,
    subject: identity.subject,
    claims: identity.claims,
    grants: identity.grants,
    actions: identity.actions,
    token_ttl_seconds: identity.token_ttl_seconds,
    created_at: identity.created_at,
  };
}

/** The identity's fields as its events record them. */
export function workloadIdentityFields(identity: WorkloadIdentity) {
  const { id, created_at: _created, ...rest } = toWorkloadIdentityView(identity);
  return { identity_id: id, ...rest };
}

/**
 * A 400 on `body.issuer` unless its keys could be fetched under the SSRF rules: an https URL whose
 * host is public (or a trusted issuer's). Checked again at every fetch, where it counts.
 */
export async function checkIssuer(
  issuer: string,
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>,
  trusted: TrustedIssuers,
): Promise<void> {
  const allow = new Set([...webhooks.allowHosts, ...trusted.hosts]);
  const vetted = await vetTarget(issuer, webhooks.resolve, allow);
  if (!vetted.ok)
    throw new LatchkeyError('invalid_request', `The issuer cannot be trusted: ${vetted.message}.`, {
      details: [{ path: 'body.issuer', message: vetted.message }],
    });
}
