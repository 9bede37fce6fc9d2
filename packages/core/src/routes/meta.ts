import { defineRoute } from '../http/router.js';
import { publicErrors } from './docs.js';

/** Routes that need no credential. */
export const metaRoutes = [
  defineRoute('GET', '/openapi.json', {
    operationId: 'getOpenApi',
    summary: 'The OpenAPI 3.1 document, generated from the schemas that validate requests.',
    tag: 'Meta',
    auth: false,
    responses: { 200: { description: 'OpenAPI 3.1 document' }, ...publicErrors },
    async handler(ctx) {
      return { status: 200, body: ctx.deps.openapi() };
    },
  }),
];
