import type { ActivityEvent } from '../../model.js';
import type { ActivityQuery, ActivityRepository } from '../ports/activity.js';
import { appendEvent, clone, type Journal, type MemoryState } from './state.js';

/** The activity log in memory: one array per organization, in chain order. */
export function memoryActivity(state: MemoryState, journal: Journal): ActivityRepository {
  return {
    async append(organizationId, draft) {
      return clone(appendEvent(state, journal, organizationId, draft));
    },
    async list(query: ActivityQuery) {
      const chain = state.events.get(query.organizationId) ?? [];
      const out: ActivityEvent[] = [];
      for (let i = chain.length - 1; i >= 0 && out.length < query.limit; i--) {
        const event = chain[i]!;
        if (query.beforeSeq !== undefined && event.seq >= query.beforeSeq) continue;
        if (query.project !== undefined && event.project !== query.project) continue;
        if (query.environment !== undefined && event.environment !== query.environment) continue;
        if (query.types !== undefined && !query.types.includes(event.type)) continue;
        if (
          query.projectEnvironments !== undefined &&
          event.environment !== undefined &&
          !query.projectEnvironments.includes(event.environment)
        )
          continue;
        if (query.since !== undefined && event.occurred_at < query.since) continue;
        if (query.until !== undefined && event.occurred_at >= query.until) continue;
        out.push(clone(event));
      }
      return out;
    },
  };
}
