/**
 * Reading change requests: a page of the environment's requests, newest first, and one request,
 * its values opened only for a caller who may read the environment's secrets (the reading
 * recorded). Whatever is read is read with its expiry applied.
 */
import { authorize } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ChangeRequest } from '../model/change-request.js';
import type { ChangeRequestListQuery } from '../schemas/change-requests.js';
import { addressOf, type ChangeScope, type ChangeServices, changeEvent } from './change-services.js';
import { expireIfDue, loadRequest } from './load-request.js';
import { toChangeRequestView } from './request-view.js';

/** A page of requests, and the cursor of the next page (null on the last). */
export interface RequestPage {
  requests: ChangeRequest[];
  nextCursor: string | null;
}

/** The page of the environment's requests after `query.cursor`, each due one marked expired first. */
export async function listRequests(
  services: ChangeServices,
  scope: ChangeScope,
  query: typeof ChangeRequestListQuery._zod.output,
): Promise<RequestPage> {
  const limit = query.limit ?? 50;
  const cursor = query.cursor ? await loadRequest(services, scope, query.cursor) : undefined;
  const page = await services.store.changeRequests.list({
    environmentId: scope.environment.id,
    status: query.status,
    before: cursor && { created_at: cursor.created_at, id: cursor.id },
    limit: limit + 1,
  });
  const shown = await Promise.all(page.slice(0, limit).map((r) => expireIfDue(services, scope, r)));
  const last = shown[shown.length - 1];
  return { requests: shown, nextCursor: page.length > limit && last ? last.id : null };
}

/**
 * Request `id` as answers show it; with `withValues`, its values too (a 403 without secrets:read
 * here), once they are opened recorded as `change_request_values_read`.
 */
export async function readRequest(
  services: ChangeServices,
  scope: ChangeScope,
  id: string,
  withValues: boolean,
): Promise<ReturnType<typeof toChangeRequestView>> {
  if (withValues && !authorize(scope.principal, 'secrets:read', addressOf(scope)).ok) {
    throw new LatchkeyError('forbidden', 'Showing the values needs secrets:read here.');
  }
  const request = await loadRequest(services, scope, id);
  if (!withValues) return toChangeRequestView(request);
  const view = toChangeRequestView(request, { keyring: services.keyring });
  await services.store.activity.append(
    scope.organization.id,
    changeEvent(services, scope, 'change_request_values_read', {
      change_request: request.id,
      keys: request.changes.map((c) => c.key),
    }),
  );
  return view;
}
