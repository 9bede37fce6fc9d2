/**
 * `POST /organizations`: any authenticated user creates an organization and becomes its owner, when
 * the host enables it (`allowOrganizationCreation`), decided by `organizations/create-organization.ts`.
 * The answer carries an owner token for the new organization, shown once.
 */

import { defineRoute } from '../http/router.js';
import { toOrganizationView } from '../http/views.js';
import { LIMIT_DEFAULTS } from '../model/limits.js';
import { createOrganization } from '../organizations/create-organization.js';
import { CreatedOrganizationResponse, CreateOrganizationBody } from '../schemas/api.js';
import { answers, error } from './docs.js';
import { serviceCall, theBody } from './service-call.js';

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
    handler: serviceCall(
      createOrganization,
      theBody,
      ({ organization, token }) => ({ organization: toOrganizationView(organization), token }),
      201,
    ),
  }),
];
