/** Workload identities (owner, admin): which CI jobs' OIDC ID tokens may be exchanged, and for what. */

import { LIMIT_DEFAULTS } from '../model/limits.js';
import { listOf } from '../schemas/api.js';
import { CreateWorkloadIdentityBody, WorkloadIdentityResponse } from '../schemas/workload.js';
import { createWorkloadIdentity, deleteWorkloadIdentity } from '../workload/identity-changes.js';
import { toWorkloadIdentityView } from '../workload/identity-view.js';
import { answers, error } from './docs.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { pathParam, serviceCall, theBody } from './service-call.js';

const IDENTITIES = `${ORGANIZATION}/workload-identities`;
const identityRoute = routeGroup({ tag: 'Workload identity', permission: 'workload_identities:manage' });

export const workloadIdentityRoutes = [
  identityRoute('POST', IDENTITIES, {
    operationId: 'createWorkloadIdentity',
    summary: `Create a workload identity: the issuer, audience, exact subject and exact claims a CI job's OIDC ID token must carry to be exchanged (POST /workload-tokens) for a token holding only these actions on these grants for token_ttl_seconds. An empty value, or one holding "*", is 400. At most limits.workloadIdentitiesPerOrganization (default ${LIMIT_DEFAULTS.workloadIdentitiesPerOrganization}). Recorded as workload_identity_created.`,
    body: CreateWorkloadIdentityBody,
    responses: answers(201, 'Created', WorkloadIdentityResponse, {
      409: error(
        'already_exists: an identity of that name exists; or limit_exceeded: the organization has as many identities as the server allows',
      ),
    }),
    handler: serviceCall(createWorkloadIdentity, theBody, toWorkloadIdentityView, 201),
  }),

  identityRoute('GET', IDENTITIES, {
    operationId: 'listWorkloadIdentities',
    summary: 'The workload identities, by name.',
    responses: answers(200, 'Workload identities', listOf('workload_identities', WorkloadIdentityResponse)),
    async handler(ctx) {
      const identities = await ctx.deps.store.workloads.list(ctx.organization.id);
      return { status: 200, body: { workload_identities: identities.map(toWorkloadIdentityView) } };
    },
  }),

  identityRoute('DELETE', `${IDENTITIES}/{workloadIdentity}`, {
    operationId: 'deleteWorkloadIdentity',
    summary:
      'Delete a workload identity (by name or id): every token issued to it stops working at once and its devices are revoked. Recorded as workload_identity_removed.',
    responses: answers(200, 'Deleted', WorkloadIdentityResponse),
    handler: serviceCall(deleteWorkloadIdentity, pathParam('workloadIdentity'), toWorkloadIdentityView),
  }),
];
