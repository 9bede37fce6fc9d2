/**
 * Applying an approved change request: its stored changes pushed in one unit of work, strictly
 * against the stored `if_version`s. The request's id is the push's nonce (in a scope of its own),
 * so two applies of one request write once; a key that moved makes the request `conflicted`, and
 * nothing else is written. Its `push_applied` names the request and its approvers.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ChangeRequest } from '../model/change-request.js';
import type { PushEventTemplate } from '../model/push-event.js';
import type { ConflictRecord } from '../model/push-plan.js';
import { pushEvent } from '../secrets/push-event.js';
import type { PushApplied } from '../secrets/push-service.js';
import type { StoreTransaction } from '../store/types.js';
import { type ChangeScope, type ChangeServices, changeEvent, eventHead } from './change-services.js';
import { loadRequest, requireStatus } from './load-request.js';
import { policyOf } from './review.js';

/** How long the apply's nonce is kept past the request's expiry (it can never apply after it). */
const NONCE_MARGIN_MS = 24 * 3_600_000;

/** Applies the request (its author, an approver, or an approver role), or throws the refusal. */
export async function applyChangeRequest(
  services: ChangeServices,
  scope: ChangeScope,
  id: string,
): Promise<PushApplied> {
  const request = await loadRequest(services, scope, id);
  requireStatus(request, 'approved');
  requireApplier(scope, request);
  const approvers = request.approvals.map((a) => a.user);
  const template: PushEventTemplate = {
    ...eventHead(services, scope),
    device_id: request.device_id,
    mode: { strict: true, force: false },
    change_request: { id: request.id, approvers },
  };
  const outcome = await services.store.transaction((tx) => applyIn(tx, services, scope, request, template));
  if ('conflicts' in outcome) {
    throw new LatchkeyError(
      'version_conflict',
      `${outcome.conflicts.length} key(s) changed since the request was made; nothing was written and the request is conflicted.`,
      { extra: { conflicts: outcome.conflicts } },
    );
  }
  // No seal to wait for: the request's own event was appended in the push's unit of work, and an
  // append seals every pending event of the organization first, the push's among them.
  return { versions: outcome.versions, eventId: template.id };
}

/** The author, someone who approved it, or a role the policy lets review. */
function requireApplier(scope: ChangeScope, request: ChangeRequest): void {
  const user = scope.principal.user;
  if (request.created_by === user || request.approvals.some((a) => a.user === user)) return;
  if ((policyOf(scope).approver_roles as readonly string[]).includes(scope.principal.role)) return;
  throw new LatchkeyError('forbidden', 'Only the author or an approver may apply a change request.');
}

interface Applied {
  versions: { key: string; version: number }[];
}

/** The push, then the request's new state and its event, all in the caller's unit of work. */
async function applyIn(
  tx: StoreTransaction,
  services: ChangeServices,
  scope: ChangeScope,
  request: ChangeRequest,
  template: PushEventTemplate,
): Promise<Applied | { conflicts: ConflictRecord[] }> {
  const nowMs = services.now();
  const result = await tx.secrets.applyPush({
    organizationId: scope.organization.id,
    environmentId: scope.environment.id,
    changes: request.changes.map(({ key, value, if_version }) => ({ key, value, if_version })),
    force: false,
    now: scope.at,
    eventTemplate: template,
    versionsKept: services.secretVersionsKept,
    nonce: {
      scope: `${scope.organization.id}/change-requests`,
      value: request.id,
      expiresAt: Date.parse(request.expires_at) + NONCE_MARGIN_MS,
      now: nowMs,
    },
  });
  if (!result.ok && result.replayed) throw closedMeanwhile(request);
  const patch = result.ok
    ? { status: 'applied' as const, applied: { event_id: template.id, versions: result.versions } }
    : { status: 'conflicted' as const };
  // Anything that moved the request since it was read (a cancel, a reject) undoes the push too.
  if (!(await tx.changeRequests.update(request.id, request.revision, patch))) throw closedMeanwhile(request);
  const organizationId = scope.organization.id;
  if (!result.ok) {
    await tx.activity.append(organizationId, pushEvent({ ok: false, conflicts: result.conflicts }, template));
    await tx.activity.append(organizationId, conflictedEvent(services, scope, request, result.conflicts));
    return { conflicts: result.conflicts };
  }
  await tx.activity.append(
    organizationId,
    changeEvent(services, scope, 'change_request_applied', {
      change_request: request.id,
      event_id: template.id,
      approvers: template.change_request!.approvers,
      versions: result.versions,
    }),
  );
  return { versions: result.versions };
}

function conflictedEvent(
  services: ChangeServices,
  scope: ChangeScope,
  request: ChangeRequest,
  conflicts: ConflictRecord[],
) {
  return changeEvent(services, scope, 'change_request_conflicted', { change_request: request.id, conflicts });
}

function closedMeanwhile(request: ChangeRequest): LatchkeyError {
  return new LatchkeyError(
    'change_request_closed',
    `Change request ${request.id} was applied or closed meanwhile.`,
  );
}
