import type { ActivityEvent } from '../model/model.js';
import type { ActivityQuery, ActivityRepository } from '../store/ports/activity.js';
import { memoryTreeReads } from './activity-tree.js';
import { appendEvent, clone, type Journal, type MemoryState } from './state.js';

/** The activity log in memory: one array per organization, in chain order. */
export function memoryActivity(state: MemoryState, journal: Journal): ActivityRepository {
  return {
    ...memoryTreeReads(state.trees),
    async append(organizationId, draft) {
      return clone(appendEvent(state, journal, organizationId, draft));
    },
    async list(query: ActivityQuery) {
      return select(state.events.get(query.organizationId) ?? [], query).map(clone);
    },
    async listJson(query: ActivityQuery) {
      const chain = state.events.get(query.organizationId) ?? [];
      return select(chain, query).map((event) => ({ seq: event.seq, json: JSON.stringify(event) }));
    },
  };
}

/** The events of `chain` the query selects, in its order, at most `limit` (not copied). */
function select(chain: readonly ActivityEvent[], query: ActivityQuery): ActivityEvent[] {
  const out: ActivityEvent[] = [];
  const step = query.oldestFirst ? 1 : -1;
  for (
    let i = query.oldestFirst ? 0 : chain.length - 1;
    i >= 0 && i < chain.length && out.length < query.limit;
    i += step
  ) {
    const event = chain[i]!;
    if (matches(event, query)) out.push(event);
  }
  return out;
}

function matches(event: ActivityEvent, query: ActivityQuery): boolean {
  if (query.beforeSeq !== undefined && event.seq >= query.beforeSeq) return false;
  if (query.afterSeq !== undefined && event.seq <= query.afterSeq) return false;
  if (query.project !== undefined && event.project !== query.project) return false;
  if (query.environment !== undefined && event.environment !== query.environment) return false;
  if (query.types !== undefined && !query.types.includes(event.type)) return false;
  if (
    query.projectEnvironments !== undefined &&
    event.environment !== undefined &&
    !query.projectEnvironments.includes(event.environment)
  )
    return false;
  if (query.since !== undefined && event.occurred_at < query.since) return false;
  if (query.until !== undefined && event.occurred_at >= query.until) return false;
  return true;
}
