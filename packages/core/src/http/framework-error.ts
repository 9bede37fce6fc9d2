/**
 * The answer to a request that failed before `core.handle` saw it: a body over the cap, a framework's
 * router or body parser refusing it, a hook of the host app throwing. Such failures still get the
 * documented `{"error":{...}}` body and the JSON error headers, written here once for the web bridge,
 * the Node bridge and every adapter.
 */

import {
  type ErrorBody,
  type ErrorCode,
  internalErrorBody,
  isLatchkeyError,
  LatchkeyError,
} from '../errors/latchkey-error.js';
import { type CoreResponse, jsonResponse } from '../model/core-request.js';

/** The 413 refusal for a body over `limit` bytes. */
export function payloadTooLarge(limit: number): LatchkeyError {
  return new LatchkeyError('payload_too_large', `The request body exceeds ${limit} bytes.`);
}

/** The 4xx statuses frameworks answer by themselves that Latchkey has a code for, with a neutral message. */
const BY_STATUS: Record<number, [ErrorCode, string]> = {
  400: ['invalid_request', 'The request could not be read.'],
  401: ['unauthenticated', 'Authentication is required.'],
  403: ['forbidden', 'This request is not allowed.'],
  404: ['not_found', 'Not found.'],
  405: ['method_not_allowed', 'This method is not allowed here.'],
  413: ['payload_too_large', 'The request body is too large.'],
  415: ['unsupported_media_type', 'Send the body as application/json.'],
};

/** Options of {@link frameworkErrorResponse}. */
export interface FrameworkErrorOptions {
  /** The core's body limit, named in the 413 message. */
  bodyLimit?: number;
  /** Called with an error that is neither a Latchkey error nor a 4xx: the host's logger belongs here. */
  unexpected?: (error: unknown) => void;
}

/**
 * The answer to an error a framework met around a Latchkey request, with the documented body and the
 * JSON error headers. A Latchkey error keeps its own body. An error with a 4xx `statusCode` (the
 * convention of Node frameworks and their body parsers) becomes the Latchkey code of that status
 * with a neutral message, its own message never reaching the client. A 4xx Latchkey has no code for
 * (a host rate limiter's 429) gives `undefined`: the host app answers it. Anything else is
 * unexpected, and answered 500 `internal_error` without details.
 */
export function frameworkErrorResponse(
  error: unknown,
  options: FrameworkErrorOptions = {},
): CoreResponse | undefined {
  if (isLatchkeyError(error)) return errorBodyResponse(error.toBody());
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) {
    options.unexpected?.(error);
    return errorBodyResponse(internalErrorBody());
  }
  if (status === 413 && options.bodyLimit !== undefined) {
    return errorBodyResponse(payloadTooLarge(options.bodyLimit).toBody());
  }
  const known = BY_STATUS[status];
  return known && errorBodyResponse(new LatchkeyError(known[0], known[1]).toBody());
}

/** The response carrying an error body: its status, the JSON error headers, and `headers` besides. */
export function errorBodyResponse(body: ErrorBody, headers?: Record<string, string>): CoreResponse {
  return jsonResponse(body.error.status, body, headers);
}
