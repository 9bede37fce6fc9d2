/** Shared response documentation for the route table. */

import type { RouteResponseDoc } from '../router.js';
import { ErrorResponse } from '../schemas.js';

const error = (description: string): RouteResponseDoc => ({ description, schema: ErrorResponse });

/** The error responses every authenticated route may give. */
export const commonErrors: Record<number, RouteResponseDoc> = {
  400: error('invalid_request: the body, query or path failed validation, or the JSON is malformed'),
  401: error('unauthenticated: no or bad credential'),
  403: error('forbidden: the role lacks the permission'),
  404: error('not_found: no such resource in your organization'),
  413: error('payload_too_large: the body is over the limit (default 1 MiB)'),
};

export const conflictError = error('already_exists: the identifier is taken');
