/**
 * `GET /me`: who a credential speaks for: the user, their organization and role, and their grants.
 * Any valid credential (an API token or the host's own `authenticate`) may ask; the dashboard and
 * the CLI learn from it who is signed in and what to show.
 */
import { defineRoute } from '../http/router.js';
import { toOrganizationView } from '../http/views.js';
import { MeResponse } from '../schemas/api.js';
import { answers } from './docs.js';

export const meRoutes = [
  defineRoute('GET', '/me', {
    operationId: 'getMe',
    summary:
      'The caller: user, organization and role (and grants). Answers any valid credential, so a client can check one and learn what to show.',
    tag: 'Organizations',
    responses: answers(200, 'The caller', MeResponse),
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
