/** Change requests of protected environments: made, read, reviewed and applied (rules in `changes/`). */
import { applyChangeRequest } from '../changes/apply-request.js';
import type { ChangeScope } from '../changes/change-services.js';
import { createChangeRequest } from '../changes/create-request.js';
import { listRequests, readRequest } from '../changes/read-requests.js';
import { toChangeRequestView } from '../changes/request-view.js';
import { approveRequest, cancelRequest, rejectRequest } from '../changes/review.js';
import type { RouteContext, RouteResponseDoc } from '../http/router.js';
import type { ChangeRequest } from '../model/change-request.js';
import { IfVersionRequiredResponse, PushConflictResponse, PushResponse } from '../schemas/api.js';
import {
  ApproveBody,
  ChangeRequestBody,
  ChangeRequestListQuery,
  ChangeRequestPage,
  ChangeRequestReadQuery,
  ChangeRequestResponse,
  RejectBody,
} from '../schemas/change-requests.js';
import { pushDeviceId } from '../secrets/push-device-id.js';
import { answers, error } from './docs.js';
import { ENVIRONMENT } from './paths.js';
import { routeGroup } from './route-group.js';

const REQUESTS = `${ENVIRONMENT}/change-requests`;
const REQUEST = `${REQUESTS}/{changeRequest}`;

const scopeOf = (ctx: RouteContext<unknown, unknown>): ChangeScope => ({
  principal: ctx.principal,
  organization: ctx.organization,
  project: ctx.project!,
  environment: ctx.environment!,
  at: ctx.at,
});

/** The routes of change requests: tagged Change requests, each with its own permission. */
const requestRoute = routeGroup({ tag: 'Change requests' });

/** The 200 of a request as a route answers it, without its values. */
const answered = (request: ChangeRequest) => ({
  status: 200,
  body: { change_request: toChangeRequestView(request) },
});

const closed = error('change_request_closed (no longer open) or change_request_expired');
const found = { 404: error('not_found: no such change request in this environment') };

/**
 * The refusals of a route that acts on one request: 404 when the environment has no such request,
 * 403 saying who may act, and 409 when the request is past acting on (by default: closed or expired).
 */
const refusals = (forbidden: string, conflict: RouteResponseDoc = closed) => ({
  ...found,
  403: error(`forbidden: ${forbidden}`),
  409: conflict,
});

export const changeRequestRoutes = [
  requestRoute('POST', REQUESTS, {
    operationId: 'createChangeRequest',
    summary: 'Propose signed changes to a protected environment, applied once enough approvers agree.',
    permission: 'changes:propose',
    body: ChangeRequestBody,
    prefetch: (request) => ({ device: pushDeviceId(request.body) }),
    responses: answers(201, 'Created', ChangeRequestResponse, {
      400: error('invalid_request: the body failed validation, or the environment has no approval policy'),
      401: error(
        'invalid_client_signature: bad client_sig (a push’s signature is not a request’s) or signed_at',
      ),
      403: error('forbidden, device_unknown, device_revoked, device_not_owned or device_key_invalid'),
      409: error('push_replayed (the nonce was used) or limit_exceeded (too many open requests)'),
      428: { description: 'if_version_required (with keys[])', schema: IfVersionRequiredResponse },
    }),
    async handler(ctx) {
      const request = await createChangeRequest(ctx.deps, {
        ...scopeOf(ctx),
        body: ctx.body,
        signed: ctx.json as Record<string, unknown>,
        device: ctx.records?.device,
      });
      return { status: 201, body: { change_request: toChangeRequestView(request) } };
    },
  }),

  requestRoute('GET', REQUESTS, {
    operationId: 'listChangeRequests',
    summary: 'List an environment’s change requests, newest first.',
    permission: 'activity:read',
    query: ChangeRequestListQuery,
    responses: answers(200, 'A page of change requests', ChangeRequestPage),
    async handler(ctx) {
      const page = await listRequests(ctx.deps, scopeOf(ctx), ctx.query);
      return {
        status: 200,
        body: {
          change_requests: page.requests.map((r) => toChangeRequestView(r)),
          next_cursor: page.nextCursor,
        },
      };
    },
  }),

  requestRoute('GET', REQUEST, {
    operationId: 'getChangeRequest',
    summary: 'Read a change request; its values too with include_values=true (secrets:read; recorded).',
    permission: 'activity:read',
    query: ChangeRequestReadQuery,
    responses: answers(200, 'The change request', ChangeRequestResponse, {
      ...found,
      403: error('forbidden: include_values=true without secrets:read here'),
    }),
    async handler(ctx) {
      const withValues = ctx.query.include_values === 'true';
      const view = await readRequest(ctx.deps, scopeOf(ctx), ctx.params['changeRequest']!, withValues);
      return { status: 200, body: { change_request: view } };
    },
  }),

  requestRoute('POST', `${REQUEST}/approve`, {
    operationId: 'approveChangeRequest',
    summary: 'Approve a change request (device-signed when the policy requires it).',
    permission: 'changes:approve',
    body: ApproveBody,
    responses: answers(200, 'Approved', ChangeRequestResponse, {
      ...refusals(
        'your role is not one of the policy’s approvers, or you are the author; under ' +
          'require_signed_approvals also device_unknown, device_revoked or device_not_owned',
        error('already_approved, change_request_closed or change_request_expired'),
      ),
      401: error('unauthenticated, or invalid_client_signature: the approval signature or its signed_at'),
    }),
    async handler(ctx) {
      const request = await approveRequest(ctx.deps, scopeOf(ctx), ctx.params['changeRequest']!, ctx.body);
      return answered(request);
    },
  }),

  requestRoute('POST', `${REQUEST}/reject`, {
    operationId: 'rejectChangeRequest',
    summary: 'Reject a change request (an approver).',
    permission: 'changes:approve',
    body: RejectBody,
    responses: answers(
      200,
      'Rejected',
      ChangeRequestResponse,
      refusals('your role is not one of the policy’s approvers (the author may reject)'),
    ),
    async handler(ctx) {
      const request = await rejectRequest(
        ctx.deps,
        scopeOf(ctx),
        ctx.params['changeRequest']!,
        ctx.body.reason,
      );
      return answered(request);
    },
  }),

  requestRoute('POST', `${REQUEST}/cancel`, {
    operationId: 'cancelChangeRequest',
    summary: 'Cancel your change request.',
    permission: 'changes:propose',
    responses: answers(200, 'Cancelled', ChangeRequestResponse, refusals('only the author cancels')),
    async handler(ctx) {
      const request = await cancelRequest(ctx.deps, scopeOf(ctx), ctx.params['changeRequest']!);
      return answered(request);
    },
  }),

  requestRoute('POST', `${REQUEST}/apply`, {
    operationId: 'applyChangeRequest',
    summary: 'Apply an approved change request, strictly against its if_versions, in one transaction.',
    permission: 'changes:propose',
    responses: answers(
      200,
      'Applied',
      PushResponse,
      refusals('only the author or an approver applies', {
        description:
          'version_conflict (with conflicts[]; the request is now conflicted), change_request_closed (not approved yet, or no longer open) or change_request_expired',
        schema: PushConflictResponse,
      }),
    ),
    async handler(ctx) {
      const applied = await applyChangeRequest(ctx.deps, scopeOf(ctx), ctx.params['changeRequest']!);
      return { status: 200, body: { versions: applied.versions, event_id: applied.eventId } };
    },
  }),
];
