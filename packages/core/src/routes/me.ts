/**
 * `GET /me`: who a credential speaks for: the user, their organization and role, and their grants.
 * Any valid credential (an API token or the host's own `authenticate`) may ask; the dashboard and
 * the CLI learn from it who is signed in and what to show.
 */
import { z } from 'zod';
import { defineRoute } from '../router.js';
import { GrantSchema, OrganizationResponse, RoleSchema } from '../schemas.js';
import { commonErrors } from './docs.js';
import { toOrganizationView } from './views.js';

export const MeResponse = z.strictObject({
  user: z.string(),
  organization: OrganizationResponse,
  role: RoleSchema,
  grants: z.array(GrantSchema).describe('the projects and environments a developer or viewer may act on'),
});

export const meRoutes = [
  defineRoute({
    method: 'GET',
    path: '/me',
    operationId: 'getMe',
    summary:
      'The caller: user, organization and role (and grants). Answers any valid credential, so a client can check one and learn what to show.',
    tag: 'Organizations',
    responses: { 200: { description: 'The caller', schema: MeResponse }, ...commonErrors },
    async handler(ctx) {
      return {
        status: 200,
        body: {
          user: ctx.principal.user,
          organization: toOrganizationView(ctx.organization),
          role: ctx.principal.role,
          grants: ctx.principal.grants,
        },
      };
    },
  }),
];
