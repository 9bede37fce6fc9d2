/** API tokens: created for a member (shown once), listed without their values, revoked. */

import { generateApiToken, hashToken } from '../crypto.js';
import { LatchkeyError } from '../errors.js';
import { defineRoute } from '../router.js';
import { CreatedTokenResponse, CreateTokenBody, listOf, TokenResponse } from '../schemas.js';
import { commonErrors } from './docs.js';
import { refuseAbove } from './guards.js';
import { toTokenView } from './views.js';

const ORG = '/organizations/{organization}';

export const tokenRoutes = [
  defineRoute({
    method: 'POST',
    path: `${ORG}/tokens`,
    operationId: 'createToken',
    summary: 'Create an API token for a member. The token is returned once.',
    tag: 'Tokens',
    permission: 'tokens:manage',
    body: CreateTokenBody,
    responses: {
      201: { description: 'Created; `token` is shown only here', schema: CreatedTokenResponse },
      ...commonErrors,
    },
    async handler(ctx) {
      const { store, ids } = ctx.services;
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
      await store.transaction(async (tx) => {
        await tx.tokens.create(record);
        await tx.activity.append(
          ctx.organization.id,
          ctx.draft('token_created', { token_id: record.id, user: record.user, name: record.name }),
        );
      });
      return { status: 201, body: { ...toTokenView(record), token } };
    },
  }),

  defineRoute({
    method: 'GET',
    path: `${ORG}/tokens`,
    operationId: 'listTokens',
    summary: 'List API tokens (never their values).',
    tag: 'Tokens',
    permission: 'tokens:manage',
    responses: { 200: { description: 'Tokens', schema: listOf('tokens', TokenResponse) }, ...commonErrors },
    async handler(ctx) {
      const tokens = await ctx.services.store.tokens.list(ctx.organization.id);
      return { status: 200, body: { tokens: tokens.map(toTokenView) } };
    },
  }),

  defineRoute({
    method: 'POST',
    path: `${ORG}/tokens/{token}/revoke`,
    operationId: 'revokeToken',
    summary: 'Revoke an API token.',
    tag: 'Tokens',
    permission: 'tokens:manage',
    responses: { 200: { description: 'Revoked', schema: TokenResponse }, ...commonErrors },
    async handler(ctx) {
      const { store } = ctx.services;
      const id = ctx.params['token']!;
      const existing = (await store.tokens.list(ctx.organization.id)).find((t) => t.id === id);
      if (!existing) throw new LatchkeyError('not_found', 'The token was not found.');
      // A removed member's token is already dead; anyone with tokens:manage may mark it revoked.
      const owner = await store.members.get(ctx.organization.id, existing.user);
      if (owner) refuseAbove(ctx, owner.role, 'revoke the token of a member whose role is above yours');
      const token = await store.transaction(async (tx) => {
        const revoked = await tx.tokens.revoke(ctx.organization.id, id, ctx.at);
        if (!revoked) throw new LatchkeyError('not_found', 'The token was not found.');
        await tx.activity.append(ctx.organization.id, ctx.draft('token_revoked', { token_id: revoked.id }));
        return revoked;
      });
      return { status: 200, body: toTokenView(token) };
    },
  }),
];
