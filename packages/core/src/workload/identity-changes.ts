/**
 * Creating and deleting workload identities: an issuer is taken only if its keys could be fetched
 * under the SSRF rules, the organization's bound is checked in the same atomic step as the insert,
 * and each change is recorded (`workload_identity_created`, `workload_identity_removed`) in the same
 * unit of work. Deleting one ends its tokens and revokes its devices at once.
 */

import { type Acting, actingEvent } from '../activity/acting.js';
import { recordChange } from '../activity/record-change.js';
import type { WebhookSettings } from '../delivery/config.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { type Limits, refuseUncreated } from '../model/limits.js';
import type { Grant } from '../model/roles.js';
import type { WorkloadAction, WorkloadIdentity } from '../model/workload.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';
import { checkIssuer, workloadIdentityFields } from './identity-view.js';
import type { WorkloadSettings } from './settings.js';

/** What the identity changes use of the core. */
export interface IdentityDeps {
  store: LatchkeyStore;
  ids: IdGenerator;
  /** The SSRF guard's resolver and allowed hosts, which an issuer's key fetches go through. */
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>;
  /** The trusted issuers, whose hosts the SSRF guard also allows. */
  workload: Pick<WorkloadSettings, 'trusted'>;
  /** The per-organization bound on identities. */
  limits: Pick<Limits, 'workloadIdentitiesPerOrganization'>;
}

/** A create request, as the API validated it (`CreateWorkloadIdentityBody`). */
export interface CreateIdentityInput {
  name: string;
  issuer: string;
  audience: string;
  subject: string;
  /** Absent: none. */
  claims?: Record<string, string> | undefined;
  grants: Grant[];
  actions: WorkloadAction[];
  token_ttl_seconds: number;
}

/**
 * Creates a workload identity of the caller's organization. Refusals: 400 for an issuer the SSRF
 * rules refuse, 409 `already_exists` for a name taken, 409 `limit_exceeded` past
 * `limits.workloadIdentitiesPerOrganization`.
 */
export async function createWorkloadIdentity(
  deps: IdentityDeps,
  acting: Acting,
  input: CreateIdentityInput,
): Promise<WorkloadIdentity> {
  await checkIssuer(input.issuer, deps.webhooks, deps.workload.trusted);
  const identity: WorkloadIdentity = {
    id: deps.ids('wid'),
    organization_id: acting.organization.id,
    name: input.name,
    issuer: input.issuer,
    audience: input.audience,
    subject: input.subject,
    claims: input.claims ?? {},
    grants: input.grants,
    actions: [...new Set(input.actions)],
    token_ttl_seconds: input.token_ttl_seconds,
    created_at: acting.at,
  };
  const max = deps.limits.workloadIdentitiesPerOrganization;
  await recordChange(
    deps.store,
    acting.organization.id,
    async (tx) =>
      refuseUncreated(
        await tx.workloads.create(identity, max),
        'A workload identity of that name exists.',
        `An organization may have at most ${max} workload identities (limits.workloadIdentitiesPerOrganization): delete one first.`,
      ),
    () => actingEvent(deps.ids, acting, 'workload_identity_created', workloadIdentityFields(identity)),
  );
  return identity;
}

/** Deletes the identity `nameOrId` names, its tokens and devices with it; 404 `not_found` when none. */
export function deleteWorkloadIdentity(
  deps: Pick<IdentityDeps, 'store' | 'ids'>,
  acting: Acting,
  nameOrId: string,
): Promise<WorkloadIdentity> {
  return recordChange(
    deps.store,
    acting.organization.id,
    async (tx) => {
      const identity = await tx.workloads.remove(acting.organization.id, nameOrId, acting.at);
      if (!identity) throw new LatchkeyError('not_found', 'No such workload identity.');
      return identity;
    },
    (identity) =>
      actingEvent(deps.ids, acting, 'workload_identity_removed', workloadIdentityFields(identity)),
  );
}
