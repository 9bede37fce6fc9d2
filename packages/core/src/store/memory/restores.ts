import type { ActivityEvent } from '../../model.js';
import type { RestoreRepository, RestoreSession } from '../ports/restores.js';
import { clone, type Journal, type MemoryState } from './state.js';

/** Staged restores and the bulk writes that apply them, in memory. */
export function memoryRestores(state: MemoryState, journal: Journal): RestoreRepository {
  const { restores } = state;
  /** Deletes the entries of `map` that `drop` selects, with their undo. */
  const removeWhere = <T>(map: Map<string, T>, drop: (value: T, key: string) => boolean) => {
    for (const [key, value] of [...map]) {
      if (!drop(value, key)) continue;
      map.delete(key);
      journal?.push(() => map.set(key, value));
    }
  };
  const dropSession = (id: string) => {
    const session = restores.sessions.get(id);
    const parts = restores.parts.get(id);
    restores.sessions.delete(id);
    restores.parts.delete(id);
    journal?.push(() => {
      if (session) restores.sessions.set(id, session);
      if (parts) restores.parts.set(id, parts);
    });
  };
  return {
    async begin(session, now) {
      for (const old of [...restores.sessions.values()]) if (old.expires_at <= now) dropSession(old.id);
      for (const open of restores.sessions.values()) {
        if (open.organization_id === session.organization_id) return clone(open);
      }
      restores.sessions.set(session.id, clone(session));
      restores.parts.set(session.id, new Map());
      journal?.push(() => {
        restores.sessions.delete(session.id);
        restores.parts.delete(session.id);
      });
      return null;
    },
    async get(organizationId, id, now) {
      const session: RestoreSession | undefined = restores.sessions.get(id);
      if (!session || session.organization_id !== organizationId || session.expires_at <= now) return null;
      return clone(session);
    },
    async putPart(sessionId, index, data, bytes, maxBytes) {
      const parts = restores.parts.get(sessionId);
      if (!parts) return null;
      const before = parts.get(index);
      let total = bytes;
      for (const [other, part] of parts) if (other !== index) total += part.bytes;
      if (total > maxBytes) return total;
      parts.set(index, { data, bytes });
      journal?.push(() => (before === undefined ? parts.delete(index) : parts.set(index, before)));
      return total;
    },
    async partStats(sessionId) {
      const parts = restores.parts.get(sessionId) ?? new Map<number, unknown>();
      return { count: parts.size, maxIndex: parts.size === 0 ? -1 : Math.max(...parts.keys()) };
    },
    async *parts(sessionId) {
      const parts = restores.parts.get(sessionId) ?? new Map<number, { data: string }>();
      for (const index of [...parts.keys()].sort((a, b) => a - b)) yield parts.get(index)!.data;
    },
    async end(sessionId) {
      dropSession(sessionId);
    },
    async clearOrganization(organizationId) {
      const projectIds = new Set<string>();
      for (const project of state.projects.values())
        if (project.organization_id === organizationId) projectIds.add(project.id);
      const environmentIds = new Set<string>();
      for (const environment of state.environments.values())
        if (environment.organization_id === organizationId) environmentIds.add(environment.id);
      const webhookIds = new Set(state.webhooksByOrg.get(organizationId) ?? []);
      removeWhere(state.secrets, (_, environmentId) => environmentIds.has(environmentId));
      removeWhere(state.environments, (e) => e.organization_id === organizationId);
      removeWhere(state.projects, (p) => p.organization_id === organizationId);
      removeWhere(state.members, (m) => m.organization_id === organizationId);
      removeWhere(state.devices, (d) => d.organization_id === organizationId);
      removeWhere(state.webhooks, (w) => w.organization_id === organizationId);
      removeWhere(state.webhooksByOrg, (_, id) => id === organizationId);
      removeWhere(state.deliveries, (d) => d.organization_id === organizationId);
      removeWhere(state.attempts, (_, webhookId) => webhookIds.has(webhookId));
      removeWhere(state.rollups, (r) => r.organization_id === organizationId);
      removeWhere(state.totals, (t) => t.organization_id === organizationId);
      removeWhere(state.events, (_, id) => id === organizationId);
    },
    async takenIds(kind, ids) {
      const map = {
        project: state.projects,
        environment: state.environments,
        device: state.devices,
        audit_webhook: state.webhooks,
      }[kind] as Map<string, { id: string }>;
      const used = new Set<string>();
      for (const record of map.values()) used.add(record.id);
      return new Set(ids.filter((id) => used.has(id)));
    },
    async insertSecrets(secrets) {
      for (const secret of secrets) {
        let keys = state.secrets.get(secret.environment_id);
        if (!keys) {
          const created = new Map();
          keys = created;
          state.secrets.set(secret.environment_id, created);
          journal?.push(() => state.secrets.delete(secret.environment_id));
        }
        const target = keys;
        target.set(secret.key, {
          head: { version: secret.version, deleted: secret.value === null },
          value: secret.value,
          updated_at: secret.updated_at,
        });
        journal?.push(() => target.delete(secret.key));
      }
    },
    async insertEvents(organizationId, events) {
      let chain = state.events.get(organizationId);
      if (!chain) {
        const created: ActivityEvent[] = [];
        chain = created;
        state.events.set(organizationId, created);
        journal?.push(() => state.events.delete(organizationId));
      }
      const target = chain;
      const length = target.length;
      for (const event of events) target.push(clone(event));
      journal?.push(() => {
        target.length = length;
      });
    },
  };
}
