/** API tokens: created for a member (shown once), listed without their values, revoked; each one call. */

import { toTokenView } from '../http/views.js';
import { createToken } from '../organizations/create-token.js';
import { revokeToken } from '../organizations/revoke-token.js';
import { CreatedTokenResponse, CreateTokenBody, TokenResponse } from '../schemas/api.js';
import { answers } from './docs.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { routeGroup } from './route-group.js';
import { pathParam, serviceCall, theBody } from './service-call.js';

/** The routes of API tokens: tagged Tokens, for holders of tokens:manage. */
const tokenRoute = routeGroup({ tag: 'Tokens', permission: 'tokens:manage' });

export const tokenRoutes = [
  tokenRoute('POST', `${ORGANIZATION}/tokens`, {
    operationId: 'createToken',
    summary: 'Create an API token for a member. The token is returned once.',
    body: CreateTokenBody,
    responses: answers(201, 'Created; `token` is shown only here', CreatedTokenResponse),
    handler: serviceCall(
      createToken,
      theBody,
      ({ record, token }) => ({ ...toTokenView(record), token }),
      201,
    ),
  }),

  tokenRoute('GET', `${ORGANIZATION}/tokens`, {
    operationId: 'listTokens',
    summary: 'List API tokens (never their values).',
    ...listing('tokens', TokenResponse, toTokenView, (ctx) =>
      ctx.deps.store.tokens.list(ctx.organization.id),
    ),
  }),

  tokenRoute('POST', `${ORGANIZATION}/tokens/{token}/revoke`, {
    operationId: 'revokeToken',
    summary: 'Revoke an API token.',
    responses: answers(200, 'Revoked', TokenResponse),
    handler: serviceCall(revokeToken, pathParam('token'), toTokenView),
  }),
];
