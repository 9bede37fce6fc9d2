/** API tokens: created for a member (shown once), listed without their values, revoked. */

import { generateApiToken, hashToken } from '../auth/tokens.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { toTokenView } from '../http/views.js';
import { CreatedTokenResponse, CreateTokenBody, TokenResponse } from '../schemas/api.js';
import { answers } from './docs.js';
import { refuseAbove } from './guards.js';
import { listing } from './list-route.js';
import { ORGANIZATION } from './paths.js';
import { recordChange } from './record-change.js';
import { routeGroup } from './route-group.js';

/** The routes of API tokens: tagged Tokens, for holders of tokens:manage. */
const tokenRoute = routeGroup({ tag: 'Tokens', permission: 'tokens:manage' });

export const tokenRoutes = [
  tokenRoute('POST', `${ORGANIZATION}/tokens`, {
    operationId: 'createToken',
    summary: 'Create an API token for a member. The token is returned once.',
    body: CreateTokenBody,
    responses: answers(201, 'Created; `token` is shown only here', CreatedTokenResponse),
    async handler(ctx) {
      const { store, ids } = ctx.deps;
      const member = await store.members.get(ctx.organization.id, ctx.body.user);
      if (!member) {
        throw new LatchkeyError('invalid_request', 'The user is not a member of this organization.', {
          details: [{ path: 'body.user', message: 'not a member' }],
        });
      }
      // A token acts with its member's role: minting one for a higher role would be a promotion.
      refuseAbove(ctx, member.role, 'create a token for a member whose role is above yours');
      const token = generateApiToken();
      const record = {
        id: ids('tok'),
        organization_id: ctx.organization.id,
        user: ctx.body.user,
        name: ctx.body.name,
        token_hash: hashToken(token),
        created_at: ctx.at,
        revoked_at: null,
      };
      await recordChange(
        ctx,
        (tx) => tx.tokens.create(record),
        () => ctx.event('token_created', { token_id: record.id, user: record.user, name: record.name }),
      );
      return { status: 201, body: { ...toTokenView(record), token } };
    },
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
    async handler(ctx) {
      const { store } = ctx.deps;
      const id = ctx.params['token']!;
      const existing = (await store.tokens.list(ctx.organization.id)).find((t) => t.id === id);
      if (!existing) throw new LatchkeyError('not_found', 'The token was not found.');
      // A removed member's token is already dead; anyone with tokens:manage may mark it revoked.
      const owner = await store.members.get(ctx.organization.id, existing.user);
      if (owner) refuseAbove(ctx, owner.role, 'revoke the token of a member whose role is above yours');
      const token = await recordChange(
        ctx,
        async (tx) => {
          const revoked = await tx.tokens.revoke(ctx.organization.id, id, ctx.at);
          if (!revoked) throw new LatchkeyError('not_found', 'The token was not found.');
          return revoked;
        },
        (revoked) => ctx.event('token_revoked', { token_id: revoked.id }),
      );
      return { status: 200, body: toTokenView(token) };
    },
  }),
];
