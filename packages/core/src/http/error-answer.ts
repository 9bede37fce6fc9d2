/**
 * The pipeline's error mapping: every failure of a request becomes its documented error body. It
 * only maps: a refusal is recorded where it was decided, before it reaches here. A store that cannot
 * serve is logged for the operator, and anything else is a 500 that says nothing about its cause.
 */

import { describeError } from '../errors/describe-error.js';
import { internalErrorBody, isLatchkeyError } from '../errors/latchkey-error.js';
import type { KeyringGate } from '../keyring/gate.js';
import { type CoreRequest, type CoreResponse, jsonResponse } from '../model/core-request.js';
import type { CoreLogger } from '../runtime/logger.js';
import { undocumented } from './documented.js';
import type { AnyRoute, RouteContext } from './router.js';

/** What the error mapping needs from its core. */
export interface ErrorAnswerDeps {
  logger: CoreLogger;
  keyringGate: Pick<KeyringGate, 'noteUnavailable'>;
  /** The core option `validateResponses`: an error body off its route's documentation is a 500. */
  validateResponses: boolean;
}

/**
 * How far a request got before it failed: its route once matched, its context once scoped; the
 * error code it was answered with, once it was.
 */
export interface RequestProgress {
  route?: AnyRoute;
  ctx?: RouteContext;
  errorCode?: string;
}

/** The answer to a request that failed with `error`. */
export function answerError(
  deps: ErrorAnswerDeps,
  request: CoreRequest,
  error: unknown,
  progress: RequestProgress,
): CoreResponse {
  const { route } = progress;
  progress.errorCode = isLatchkeyError(error) ? error.code : 'internal';
  if (!isLatchkeyError(error)) {
    deps.logger.error('unexpected error while handling a request', {
      method: request.method,
      route: route?.operationId,
      error: describeError(error),
    });
    return jsonResponse(500, internalErrorBody());
  }
  if (error.code === 'service_unavailable') {
    // The store is down or overloaded (or the keyring lacks a key): tell the operator why. A 503
    // the core answers of itself, with no cause (a setting missing, an organization being
    // restored), is not the store failing.
    if (!deps.keyringGate.noteUnavailable(error) && error.cause !== undefined) {
      deps.logger.error('the store is unavailable', {
        route: route?.operationId,
        cause: describeError(error.cause),
      });
    }
  }
  const body = error.toBody();
  const drift = deps.validateResponses && route ? undocumented(route, error.status, body) : null;
  if (!drift) return jsonResponse(error.status, body, error.headers());
  deps.logger.error('an error answer is not documented', { route: route!.operationId, drift });
  return jsonResponse(500, internalErrorBody());
}
