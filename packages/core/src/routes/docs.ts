/** Shared response documentation for the route table. */

import type { z } from 'zod';
import type { RouteResponseDoc } from '../http/router.js';
import { ErrorResponse } from '../schemas/api.js';

/** An error response: its description names the code and says when it is given. */
export const error = (description: string): RouteResponseDoc => ({ description, schema: ErrorResponse });

/** The error responses every authenticated route may give. */
export const commonErrors: Record<number, RouteResponseDoc> = {
  400: error('invalid_request: the body, query or path failed validation, or the JSON is malformed'),
  401: error('unauthenticated: no or bad credential'),
  403: error('forbidden: the role lacks the permission'),
  404: error('not_found: no such resource in your organization'),
  405: error('method_not_allowed: the path exists, not with this method; the Allow header lists its methods'),
  413: error('payload_too_large: the body is over the limit (default 1 MiB)'),
  415: error('unsupported_media_type: a body that is not application/json in UTF-8'),
  431: error(
    'request_header_fields_too_large: the request line and headers are over the server limit (answered by the server helper, before routing)',
  ),
  500: error('internal_error: something unexpected failed; the body says nothing more'),
  503: error(
    "service_unavailable: the store is unreachable, overloaded or too slow right now, or a stored value is sealed with a key this server's keyring lacks (another instance rotated to it), or the keyring cannot open the store's data; Retry-After says when to try again",
  ),
};

/** The error responses a public route (no credential, no input) may give. */
export const publicErrors: Record<number, RouteResponseDoc> = {
  405: commonErrors[405]!,
  413: commonErrors[413]!,
  431: commonErrors[431]!,
  500: commonErrors[500]!,
};

/** The 409 of a create whose identifier is taken. */
export const conflictError = error('already_exists: the identifier is taken');

/**
 * The responses an authenticated route documents: its answer with `status`, the errors every such
 * route may give, and its own errors, which win over the common ones (a 503 that says more).
 */
export function answers(
  status: number,
  description: string,
  schema: z.ZodType,
  own: Record<number, RouteResponseDoc> = {},
): Record<number, RouteResponseDoc> {
  return { [status]: { description, schema }, ...commonErrors, ...own };
}
