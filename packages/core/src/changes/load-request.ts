/**
 * Reading a change request of the scope's environment, with its expiry applied: a request past
 * `expires_at` that was still open or approved becomes `expired`, recorded once, whoever reads it.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ChangeRequest } from '../model/change-request.js';
import { type ChangeScope, type ChangeServices, changeEvent } from './change-services.js';

const LIVE = new Set(['open', 'approved']);

/** The request as it stands now, or 404 (another environment's or organization's included). */
export async function loadRequest(
  services: ChangeServices,
  scope: ChangeScope,
  id: string,
): Promise<ChangeRequest> {
  const request = await services.store.changeRequests.get(scope.organization.id, id);
  if (!request || request.environment_id !== scope.environment.id) {
    throw new LatchkeyError('not_found', 'No such change request in this environment.');
  }
  return expireIfDue(services, scope, request);
}

/** The request, marked `expired` (with its event) first when it is due. */
export async function expireIfDue(
  services: ChangeServices,
  scope: ChangeScope,
  request: ChangeRequest,
): Promise<ChangeRequest> {
  if (!LIVE.has(request.status) || Date.parse(request.expires_at) > Date.parse(scope.at)) return request;
  const expired = await services.store.transaction(async (tx) => {
    const changed = await tx.changeRequests.update(request.id, request.revision, { status: 'expired' });
    if (!changed) return null;
    await tx.activity.append(
      scope.organization.id,
      changeEvent(services, scope, 'change_request_expired', {
        change_request: request.id,
        expires_at: request.expires_at,
      }),
    );
    return changed;
  });
  // Someone else moved it meanwhile (expired it, or closed it just before): read what they left.
  return expired ?? (await services.store.changeRequests.get(scope.organization.id, request.id)) ?? request;
}

/** A 409 unless the request is in one of `statuses`: expired, or closed naming its status. */
export function requireStatus(request: ChangeRequest, ...statuses: ChangeRequest['status'][]): void {
  if (statuses.includes(request.status)) return;
  if (request.status === 'expired') {
    throw new LatchkeyError(
      'change_request_expired',
      `Change request ${request.id} expired at ${request.expires_at}.`,
    );
  }
  const why =
    request.status === 'open'
      ? `has ${request.approvals.length} of ${request.required_approvals} approvals`
      : `is ${request.status}`;
  throw new LatchkeyError('change_request_closed', `Change request ${request.id} ${why}.`);
}
