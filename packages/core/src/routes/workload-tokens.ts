/** The token exchange: a CI job's OIDC ID token for a short-lived workload token (no bearer needed). */

import { parseBody, validate } from '../http/request-input.js';
import type { AnyRoute } from '../http/router.js';
import { WorkloadTokenBody, WorkloadTokenResponse } from '../schemas/workload.js';
import { exchangeWorkloadToken } from '../workload/exchange.js';
import { commonErrors, error } from './docs.js';
import { routeGroup } from './route-group.js';

const exchangeRoute = routeGroup({ tag: 'Workload identity' });

const route: AnyRoute = exchangeRoute('POST', '/workload-tokens', {
  operationId: 'exchangeWorkloadToken',
  summary:
    "Exchange a CI job's OIDC ID token for a workload token. The JWT is checked with the issuer's keys (OIDC discovery over HTTPS under the SSRF rules, cached, fetched again once for an unknown kid): RS256, ES256 or EdDSA; iss, aud, exp (in the future, at most 1 h after iat), iat and nbf (at most 60 s ahead), sub and every listed claim exactly, and a jti exchanged once. The token holds only the identity's actions on its grants for token_ttl_seconds; its pushes are signed by the device made from public_key, which expires with it, and are strict. Recorded as workload_token_issued, never the JWT.",
  auth: false,
  gated: true,
  body: WorkloadTokenBody,
  responses: {
    201: { description: 'Issued; `token` is shown only here', schema: WorkloadTokenResponse },
    400: commonErrors[400]!,
    401: error('invalid_workload_token: no such identity, or the ID token failed a check the message names'),
    405: commonErrors[405]!,
    409: error(
      'token_replayed: the ID token’s jti was already exchanged; or limit_exceeded: too many unexpired ID tokens of the issuer were exchanged',
    ),
    413: commonErrors[413]!,
    415: commonErrors[415]!,
    431: commonErrors[431]!,
    500: commonErrors[500]!,
    503: commonErrors[503]!,
  },
  async handler(ctx) {
    const body = validate(WorkloadTokenBody, parseBody(ctx.request, route), 'body');
    const { store, now, ids, workload } = ctx.deps;
    const answer = await exchangeWorkloadToken({ store, now, ids, issuerKeys: workload.keys }, body);
    return { status: 201, body: answer };
  },
});

export const workloadTokenRoutes = [route];
