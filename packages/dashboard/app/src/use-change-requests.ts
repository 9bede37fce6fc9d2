/**
 * An environment's change requests, open ones first: those still open, then those approved and
 * waiting to be applied, then the latest closed ones, each group newest first as the API lists it.
 * Open and approved requests are read whole (up to 100 each), so an old open request is never
 * pushed off the page by newer closed ones.
 */
import { api } from './api.js';
import type { ChangeRequest, ChangeRequestPage } from './change-types.js';
import { useRequest } from './use-request.js';

/** How many closed requests are shown. */
const CLOSED = 20;

/** The requests of the environment at `path`, in the order the page shows them. */
export function useChangeRequests(path: string) {
  const state = useRequest(async () => {
    const page = (query: string) => api<ChangeRequestPage>('GET', `${path}/change-requests?${query}`);
    const [open, approved, recent] = await Promise.all([
      page('status=open&limit=100'),
      page('status=approved&limit=100'),
      page(`limit=${CLOSED + 50}`),
    ]);
    const live = [...open.change_requests, ...approved.change_requests];
    const seen = new Set(live.map((r) => r.id));
    const closed = recent.change_requests.filter((r) => !seen.has(r.id) && !isLive(r)).slice(0, CLOSED);
    return [...live, ...closed];
  }, path);
  return { state, list: state.data };
}

/** Whether a request may still be approved or applied. */
export const isLive = (request: ChangeRequest) => request.status === 'open' || request.status === 'approved';
