/**
 * The pipeline's error mapping: every failure of a request becomes its documented error body. A
 * refusal of a scoped request is recorded in the activity log (the route's `rejectedEvent`, unless
 * its handler recorded it already), a store that cannot serve is logged for the operator, and
 * anything else is a 500 that says nothing about its cause.
 */
import type { EventType } from '../activity/event-types/index.js';
import { describeError } from '../errors/describe-error.js';
import { internalErrorBody, isLatchkeyError, type LatchkeyError } from '../errors/latchkey-error.js';
import type { KeyringGate } from '../keyring/gate.js';
import { type CoreRequest, type CoreResponse, jsonResponse } from '../model/core-request.js';
import type { CoreLogger } from '../runtime/logger.js';
import { undocumented } from './documented.js';
import type { AnyRoute, RouteContext } from './router.js';
import { paramSchemas } from './validation.js';

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
export async function answerError(
  deps: ErrorAnswerDeps,
  request: CoreRequest,
  error: unknown,
  progress: RequestProgress,
): Promise<CoreResponse> {
  const { route, ctx } = progress;
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
  } else if (ctx && route?.rejectedEvent && !error.recorded) {
    await recordRejection(deps.logger, ctx, route.rejectedEvent, error);
  }
  const body = error.toBody();
  const drift = deps.validateResponses && route ? undocumented(route, error.status, body) : null;
  if (!drift) return jsonResponse(error.status, body, error.headers());
  deps.logger.error('an error answer is not documented', { route: route!.operationId, drift });
  return jsonResponse(500, internalErrorBody());
}

/** Appends the route's `rejectedEvent` for a refused request; a failure to do so is only logged. */
async function recordRejection(
  logger: CoreLogger,
  ctx: RouteContext,
  type: EventType,
  error: LatchkeyError,
): Promise<void> {
  try {
    const json = ctx.json as { device_id?: unknown } | undefined;
    // Only a well-formed device id from the body reaches the log; anything else is left out.
    const deviceId =
      json && paramSchemas['device']!.safeParse(json.device_id).success
        ? (json.device_id as string)
        : undefined;
    await ctx.services.store.activity.append(
      ctx.organization.id,
      ctx.event(type, { reason: error.code, status: error.status }, { device_id: deviceId }),
    );
  } catch (appendError) {
    logger.error('could not record a rejected request', {
      error: appendError instanceof Error ? appendError.message : String(appendError),
    });
  }
}
