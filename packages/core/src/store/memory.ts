/**
 * The in-memory store: the embedded default for demos and unit tests. Every method runs to completion
 * without awaiting in between, so each one is atomic within the process.
 */
import { type ChainHead, sealEvent } from '../activity.js';
import { type KeyHead, planPush } from '../conflicts.js';
import type {
  ActivityEvent,
  ApiToken,
  Device,
  Environment,
  Member,
  Organization,
  Project,
} from '../model.js';
import type { ActivityQuery, ApplyPushInput, ApplyPushResult, LatchkeyStore } from './types.js';

interface StoredSecret {
  head: KeyHead;
  value: string | null;
  updated_at: string;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Upper bound on remembered push nonces; expired ones are dropped first. Default 1,000,000. */
  maxNonces?: number;
}

/** Creates an empty in-memory store. */
export function createMemoryStore(options: MemoryStoreOptions = {}): LatchkeyStore {
  const maxNonces = options.maxNonces ?? 1_000_000;
  const orgs = new Map<string, Organization>();
  const orgBySlug = new Map<string, Organization>();
  const projects = new Map<string, Project>(); // key: orgId/slug
  const environments = new Map<string, Environment>(); // key: projectId/slug
  const members = new Map<string, Member>(); // key: orgId/user
  const tokens = new Map<string, ApiToken>(); // key: id
  const tokenByHash = new Map<string, ApiToken>();
  const devices = new Map<string, Device>(); // key: id
  const nonces = new Map<string, number>(); // key: scope/nonce -> expiresAt
  const secrets = new Map<string, Map<string, StoredSecret>>(); // envId -> key -> secret
  const events = new Map<string, ActivityEvent[]>(); // orgId -> chain

  // Records handed out are copies, so callers can never change the store by mutating them. Flat
  // records get a cheap shallow copy; nested ones (members' grants, events' data) a deep one.
  const clone = <T>(value: T): T => structuredClone(value);
  const copy = <T extends object>(value: T): T => ({ ...value });
  const copyMember = (m: Member): Member => ({
    ...m,
    grants: m.grants.map((g) => ({ project: g.project, environments: [...g.environments] })),
  });

  function appendEvent(organizationId: string, draft: Parameters<typeof sealEvent>[0]): ActivityEvent {
    let chain = events.get(organizationId);
    if (!chain) {
      chain = [];
      events.set(organizationId, chain);
    }
    const last = chain[chain.length - 1];
    const head: ChainHead | null = last ? { seq: last.seq, hash: last.hash } : null;
    const event = sealEvent(draft, head);
    chain.push(event);
    return event;
  }

  function pruneNonces(now: number): void {
    for (const [key, expiresAt] of nonces) {
      if (expiresAt <= now) nonces.delete(key);
    }
    // Still full of live nonces: forget the oldest (insertion order) rather than grow without bound.
    while (nonces.size >= maxNonces) {
      const oldest = nonces.keys().next().value;
      if (oldest === undefined) break;
      nonces.delete(oldest);
    }
  }

  return {
    organizations: {
      async create(org) {
        if (orgBySlug.has(org.slug)) return 'exists';
        orgs.set(org.id, copy(org));
        orgBySlug.set(org.slug, orgs.get(org.id)!);
        return 'created';
      },
      async getBySlug(slug) {
        const org = orgBySlug.get(slug);
        return org ? copy(org) : null;
      },
      async getById(id) {
        const org = orgs.get(id);
        return org ? copy(org) : null;
      },
    },
    projects: {
      async create(project) {
        const key = `${project.organization_id}/${project.slug}`;
        if (projects.has(key)) return 'exists';
        projects.set(key, copy(project));
        return 'created';
      },
      async get(organizationId, slug) {
        const project = projects.get(`${organizationId}/${slug}`);
        return project ? copy(project) : null;
      },
      async list(organizationId) {
        return [...projects.values()]
          .filter((p) => p.organization_id === organizationId)
          .sort((a, b) => a.slug.localeCompare(b.slug))
          .map(copy);
      },
    },
    environments: {
      async create(environment) {
        const key = `${environment.project_id}/${environment.slug}`;
        if (environments.has(key)) return 'exists';
        environments.set(key, copy(environment));
        return 'created';
      },
      async get(projectId, slug) {
        const environment = environments.get(`${projectId}/${slug}`);
        return environment ? copy(environment) : null;
      },
      async list(projectId) {
        return [...environments.values()]
          .filter((e) => e.project_id === projectId)
          .sort((a, b) => a.slug.localeCompare(b.slug))
          .map(copy);
      },
      async update(id, patch) {
        for (const environment of environments.values()) {
          if (environment.id === id) {
            environment.require_strict_conflict_mode = patch.require_strict_conflict_mode;
            return copy(environment);
          }
        }
        return null;
      },
    },
    members: {
      async create(member) {
        const key = `${member.organization_id}/${member.user}`;
        if (members.has(key)) return 'exists';
        members.set(key, clone(member));
        return 'created';
      },
      async get(organizationId, user) {
        const member = members.get(`${organizationId}/${user}`);
        return member ? copyMember(member) : null;
      },
      async list(organizationId) {
        return [...members.values()]
          .filter((m) => m.organization_id === organizationId)
          .sort((a, b) => a.user.localeCompare(b.user))
          .map(clone);
      },
    },
    tokens: {
      async create(token) {
        tokens.set(token.id, copy(token));
        tokenByHash.set(token.token_hash, tokens.get(token.id)!);
      },
      async findByHash(tokenHash) {
        const token = tokenByHash.get(tokenHash);
        return token ? copy(token) : null;
      },
      async list(organizationId) {
        return [...tokens.values()].filter((t) => t.organization_id === organizationId).map(copy);
      },
      async revoke(organizationId, id, at) {
        const token = tokens.get(id);
        if (!token || token.organization_id !== organizationId) return null;
        token.revoked_at ??= at;
        return copy(token);
      },
    },
    devices: {
      async create(device) {
        devices.set(device.id, copy(device));
      },
      async get(organizationId, id) {
        const device = devices.get(id);
        return device && device.organization_id === organizationId ? copy(device) : null;
      },
      async list(organizationId, user) {
        return [...devices.values()]
          .filter((d) => d.organization_id === organizationId && (user === undefined || d.user === user))
          .map(copy);
      },
      async revoke(organizationId, id, at) {
        const device = devices.get(id);
        if (!device || device.organization_id !== organizationId) return null;
        if (device.status !== 'revoked') {
          device.status = 'revoked';
          device.revoked_at = at;
        }
        return copy(device);
      },
    },
    nonces: {
      async consume(scope, nonce, expiresAt, now) {
        const key = `${scope}/${nonce}`;
        const seen = nonces.get(key);
        if (seen !== undefined && seen > now) return false;
        if (nonces.size >= maxNonces) pruneNonces(now);
        nonces.set(key, expiresAt);
        return true;
      },
    },
    secrets: {
      async applyPush(input: ApplyPushInput): Promise<ApplyPushResult> {
        let table = secrets.get(input.environmentId);
        if (!table) {
          table = new Map();
          secrets.set(input.environmentId, table);
        }
        const heads = new Map<string, KeyHead>();
        for (const change of input.changes) {
          const stored = table.get(change.key);
          if (stored) heads.set(change.key, stored.head);
        }
        const plan = planPush(heads, input.changes, input.force);
        if (!plan.ok) return { ok: false, conflicts: plan.conflicts };
        const draft = input.event(plan);
        for (const write of plan.writes) {
          table.set(write.key, {
            head: { version: write.version, deleted: write.value === null },
            value: write.value,
            updated_at: input.now,
          });
        }
        const event = appendEvent(input.organizationId, draft);
        return {
          ok: true,
          versions: plan.writes.map((w) => ({ key: w.key, version: w.version })),
          event: { ...event },
        };
      },
      async listLive(environmentId) {
        const table = secrets.get(environmentId);
        if (!table) return [];
        return [...table.entries()]
          .filter(([, s]) => !s.head.deleted)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, s]) => ({ key, version: s.head.version, value: s.value, updated_at: s.updated_at }));
      },
    },
    activity: {
      async append(organizationId, draft) {
        return clone(appendEvent(organizationId, draft));
      },
      async list(query: ActivityQuery) {
        const chain = events.get(query.organizationId) ?? [];
        const out: ActivityEvent[] = [];
        for (let i = chain.length - 1; i >= 0 && out.length < query.limit; i--) {
          const event = chain[i]!;
          if (query.beforeSeq !== undefined && event.seq >= query.beforeSeq) continue;
          if (query.project !== undefined && event.project !== query.project) continue;
          if (query.environment !== undefined && event.environment !== query.environment) continue;
          if (query.type !== undefined && event.type !== query.type) continue;
          if (query.since !== undefined && event.occurred_at < query.since) continue;
          if (query.until !== undefined && event.occurred_at >= query.until) continue;
          out.push(clone(event));
        }
        return out;
      },
    },
  };
}
