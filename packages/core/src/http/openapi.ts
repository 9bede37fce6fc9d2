/** The OpenAPI 3.1 document, generated from the route table and its zod schemas. */

import { z } from 'zod';
import { describeEventTypes } from '../activity/event-types/index.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { ERROR_STATUS } from '../errors/latchkey-error.js';
import type { AnyRoute, RouteResponseDoc } from './router.js';
import { paramSchemas } from './validation.js';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

// A 405 answers for the path, not for one operation: every operation of the path lists it, with Allow.
const ALLOW_HEADER = {
  Allow: { description: 'The methods this path accepts', schema: { type: 'string' } },
};

// A 429 and a 503 come with Retry-After: the seconds after which trying again is worth it.
const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'string' } },
};
const STATUS_HEADERS: Record<string, Record<string, unknown>> = {
  '405': ALLOW_HEADER,
  '429': RETRY_AFTER_HEADER,
  '503': RETRY_AFTER_HEADER,
};

/** Builds the document for a route table mounted at `basePath`. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], basePath: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = basePath + route.path;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Latchkey API',
      version: '2.0.0',
      description:
        'Signed pushes with optimistic concurrency, device checks, role-based access and a tamper-evident activity log. ' +
        'Every string a request carries (body, query, path) must be well-formed Unicode without NUL, and a body or query must be UTF-8: otherwise 400 invalid_request, whose error.details [{path, message}] name where. ' +
        'Every non-2xx body is {"error":{"code","message","status"}}; error codes: ' +
        Object.entries(ERROR_STATUS)
          .map(([code, status]) => `${code} (${status})`)
          .join(', ') +
        '.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'lk_ API token' } },
      schemas: eventDataSchemas(),
    },
    paths,
  };
}

/**
 * The `data` of each activity event type, as `GET /event-types` serves it: `EventData.<type>`,
 * described by the catalog's line.
 */
function eventDataSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    describeEventTypes().map(({ type, description, data_schema }) => {
      const { $schema: _, ...schema } = data_schema;
      return [`EventData.${type}`, { ...schema, description }];
    }),
  );
}

/** The operation object of one route: its parameters, responses, permission and request body. */
function operationOf(route: AnyRoute): Record<string, unknown> {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const operation: Record<string, unknown> = {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    parameters: [
      ...params.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: paramSchemas[name] ? strip(toSchema(paramSchemas[name]!, 'input')) : { type: 'string' },
      })),
      ...queryParameters(route),
    ],
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, doc]) => [status, responseOf(status, doc)]),
    ),
  };
  if (route.auth === false) operation['security'] = [];
  if (route.permission) {
    operation['x-latchkey-permission'] = route.permission;
    operation['x-latchkey-scope'] = PERMISSIONS[route.permission].scope;
  }
  if (route.body) {
    operation['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: strip(toSchema(route.body, 'input')) } },
    };
  }
  return operation;
}

/** The query parameters of a route, one per property of its query schema. */
function queryParameters(route: AnyRoute): Record<string, unknown>[] {
  if (!route.query) return [];
  const schema = toSchema(route.query, 'input') as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: prop,
  }));
}

/** One documented response: a JSON body's schema, or a download's media types. */
function responseOf(status: string, doc: RouteResponseDoc): Record<string, unknown> {
  return {
    description: doc.description,
    ...(STATUS_HEADERS[status] ? { headers: STATUS_HEADERS[status] } : {}),
    ...(doc.schema
      ? {
          content: {
            'application/json': { schema: strip(toSchema(doc.schema, 'output')) },
            // Other representations of the same answer, chosen by Accept (a checkpoint's note).
            ...Object.fromEntries(
              (doc.mediaTypes ?? []).map((type) => [type, { schema: { type: 'string' } }]),
            ),
          },
        }
      : doc.mediaTypes
        ? {
            content: Object.fromEntries(doc.mediaTypes.map((type) => [type, { schema: { type: 'string' } }])),
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename="<organization>-activity-<time>.<format>"',
                schema: { type: 'string' },
              },
            },
          }
        : {}),
  };
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
