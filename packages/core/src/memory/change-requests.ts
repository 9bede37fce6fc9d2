import type { ChangeRequest } from '../model/change-request.js';
import type { ChangeRequestRepository } from '../store/ports/change-requests.js';
import { journaledSet } from './journaled.js';
import { clone, type Journal, type MemoryState } from './state.js';

const isOpen = (r: ChangeRequest) => r.status === 'open' || r.status === 'approved';

/** Newest first: by creation time, then id. */
const newestFirst = (a: ChangeRequest, b: ChangeRequest) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

/** Change requests in memory: each call one synchronous step, so a compare-and-set is atomic. */
export function memoryChangeRequests(state: MemoryState, journal: Journal): ChangeRequestRepository {
  const ofEnvironment = (environmentId: string) =>
    [...state.changeRequests.values()].filter((r) => r.environment_id === environmentId);
  return {
    async create(request, maxOpen) {
      if (ofEnvironment(request.environment_id).filter(isOpen).length >= maxOpen) return 'limit';
      journaledSet(state.changeRequests, request.id, clone(request), journal);
      return 'created';
    },
    async get(organizationId, id) {
      const request = state.changeRequests.get(id);
      return request && request.organization_id === organizationId ? clone(request) : null;
    },
    async list({ environmentId, status, before, limit }) {
      return ofEnvironment(environmentId)
        .filter((r) => status === undefined || r.status === status)
        .filter((r) => !before || newestFirst(r, { ...r, ...before }) > 0)
        .sort(newestFirst)
        .slice(0, limit)
        .map(clone);
    },
    async update(id, revision, patch) {
      const request = state.changeRequests.get(id);
      if (!request || request.revision !== revision) return null;
      const changed = { ...clone(request), ...clone(patch), revision: revision + 1 };
      journaledSet(state.changeRequests, id, changed, journal);
      return clone(changed);
    },
    async listOpen(environmentId) {
      return ofEnvironment(environmentId).filter(isOpen).sort(newestFirst).reverse().map(clone);
    },
  };
}
