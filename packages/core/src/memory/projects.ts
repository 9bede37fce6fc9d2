import type { ProjectRepository } from '../store/ports/projects.js';
import { namedRecords } from './named-records.js';
import { copy, type Journal, type MemoryState } from './state.js';

/** Projects in memory, unique by slug in their organization. */
export function memoryProjects(state: MemoryState, journal: Journal): ProjectRepository {
  return namedRecords(
    state.projects,
    journal,
    { parent: (p) => p.organization_id, name: (p) => p.slug },
    copy,
  );
}
