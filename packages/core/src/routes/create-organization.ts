/**
 * `POST /organizations`: any authenticated user creates an organization and becomes its owner, when
 * the host enables it (`allowOrganizationCreation`). The answer carries an owner token for the new
 * organization, shown once: the caller's current token belongs to their current organization only.
 */

import { generateApiToken, hashToken } from '../auth/tokens.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import { defineRoute } from '../http/router.js';
import { toOrganizationView } from '../http/views.js';
import { LIMIT_DEFAULTS, limitExceeded } from '../model/limits.js';
import { CreatedOrganizationResponse, CreateOrganizationBody } from '../schemas/api.js';
import { answers, error } from './docs.js';

export const createOrganizationRoutes = [
  defineRoute('POST', '/organizations', {
    operationId: 'createOrganization',
    summary: `Create an organization; you become its owner and get an owner token for it, once. A user may create at most limits.organizationsPerUser organizations (default ${LIMIT_DEFAULTS.organizationsPerUser}).`,
    tag: 'Organizations',
    body: CreateOrganizationBody,
    responses: answers(201, 'Created', CreatedOrganizationResponse, {
      409: error(
        'already_exists: the slug is taken; or limit_exceeded: the caller already created as many organizations as the server allows (limits.organizationsPerUser)',
      ),
    }),
    async handler(ctx) {
      const { store, ids, allowOrganizationCreation, limits } = ctx.deps;
      if (!allowOrganizationCreation) {
        throw new LatchkeyError('forbidden', 'Creating organizations is not enabled on this server.');
      }
      const user = ctx.principal.user;
      const organization = {
        id: ids('org'),
        slug: ctx.body.slug,
        name: ctx.body.name ?? ctx.body.slug,
        created_at: ctx.at,
      };
      const token = generateApiToken();
      const record = {
        id: ids('tok'),
        organization_id: organization.id,
        user,
        name: 'created with the organization',
        token_hash: hashToken(token),
        created_at: ctx.at,
        revoked_at: null,
      };
      await store.transaction(async (tx) => {
        const max = limits.organizationsPerUser;
        const created = await tx.organizations.create(organization, { user, max });
        if (created === 'exists') {
          throw new LatchkeyError('already_exists', `An organization ${organization.slug} already exists.`);
        }
        if (created === 'limit') {
          throw limitExceeded(
            `A user may create at most ${max} organizations on this server (limits.organizationsPerUser).`,
          );
        }
        await tx.members.create({
          organization_id: organization.id,
          user,
          role: 'owner',
          grants: [],
          created_at: ctx.at,
        });
        await tx.tokens.create(record);
        // The new organization's chain starts with its own creation.
        const inNew = { organization: organization.slug };
        await tx.activity.append(
          organization.id,
          ctx.event(
            'organization_created',
            { organization: organization.slug, name: organization.name },
            inNew,
          ),
        );
        await tx.activity.append(
          organization.id,
          ctx.event('member_added', { user, role: 'owner', grants: [] }, inNew),
        );
        await tx.activity.append(
          organization.id,
          ctx.event('token_created', { token_id: record.id, user, name: record.name }, inNew),
        );
      });
      return { status: 201, body: { organization: toOrganizationView(organization), token } };
    },
  }),
];
