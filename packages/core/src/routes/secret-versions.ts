/** A key's version history (decided by `secrets/version-history.ts`). */
import { defineRoute } from '../http/router.js';
import { SecretVersionsQuery, SecretVersionsResponse } from '../schemas/secret-versions.js';
import { readVersionHistory } from '../secrets/version-history.js';
import { answers, error } from './docs.js';
import { ENVIRONMENT } from './paths.js';

export const secretVersionRoutes = [
  defineRoute('GET', `${ENVIRONMENT}/secrets/{key}/versions`, {
    operationId: 'listSecretVersions',
    summary:
      'A key’s versions, newest first (tombstones included); with include_values=true, each kept value.',
    tag: 'Secrets',
    permission: 'activity:read',
    query: SecretVersionsQuery,
    responses: answers(200, 'A page of versions, newest first', SecretVersionsResponse, {
      400: error('invalid_request: the key in the path, the query or the cursor is malformed'),
      403: error('forbidden: the role lacks activity:read here, or secrets:read with include_values=true'),
    }),
    async handler(ctx) {
      const body = await readVersionHistory({
        store: ctx.deps.store,
        keyring: ctx.deps.keyring,
        principal: ctx.principal,
        organizationId: ctx.organization.id,
        project: ctx.project!,
        environment: ctx.environment!,
        key: ctx.params['key']!,
        limit: ctx.query.limit ?? 20,
        cursor: ctx.query.cursor,
        includeValues: ctx.query.include_values ?? false,
        event: ctx.event,
      });
      return { status: 200, body };
    },
  }),
];
