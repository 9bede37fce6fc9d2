/**
 * Workload identities, their tokens and the exchanged `jti`s in memory. The maps live beside the
 * store's state (keyed by it), so the shared state file keeps to its size; a restore clears the
 * identities and tokens with the organization through {@link clearWorkloads}, never the `jti`s.
 */
import type { WorkloadIdentity, WorkloadToken } from '../model/workload.js';
import type { WorkloadRepository } from '../store/ports/workloads.js';
import { journaledAssign, journaledDelete, journaledDeleteWhere, journaledSet } from './journaled.js';
import { byCodeUnits } from './order.js';
import { copy, type Journal, type MemoryState } from './state.js';

interface WorkloadMaps {
  identities: Map<string, WorkloadIdentity>;
  tokens: Map<string, WorkloadToken>;
  /** `orgId|issuer|jti` -> when it may be forgotten (ms). */
  jtis: Map<string, number>;
}

const maps = new WeakMap<MemoryState, WorkloadMaps>();

function of(state: MemoryState): WorkloadMaps {
  let found = maps.get(state);
  if (!found) {
    found = { identities: new Map(), tokens: new Map(), jtis: new Map() };
    maps.set(state, found);
  }
  return found;
}

const cloneIdentity = (identity: WorkloadIdentity): WorkloadIdentity => structuredClone(identity);

/** The identities of every organization, by id (a restore checks which ids are taken). */
export const workloadIdentitiesOf = (state: MemoryState): ReadonlyMap<string, WorkloadIdentity> =>
  of(state).identities;

/** Copies the organization's identities into `to` (a backup's snapshot; tokens and jtis stay behind). */
export function copyWorkloads(from: MemoryState, to: MemoryState, organizationId: string): void {
  const target = of(to).identities;
  for (const [id, identity] of of(from).identities)
    if (identity.organization_id === organizationId) target.set(id, cloneIdentity(identity));
}

/**
 * Drops an organization's identities and tokens (a restore replaces the organization). Its spent
 * `jti`s stay: an ID token exchanged before the restore is refused after it as before.
 */
export function clearWorkloads(state: MemoryState, journal: Journal, organizationId: string): void {
  const m = of(state);
  journaledDeleteWhere(m.identities, (i) => i.organization_id === organizationId, journal);
  journaledDeleteWhere(m.tokens, (t) => t.organization_id === organizationId, journal);
}

/** The workload repository in memory: each call one synchronous step. */
export function memoryWorkloads(state: MemoryState, journal: Journal): WorkloadRepository {
  const m = of(state);
  const find = (organizationId: string, nameOrId: string) =>
    [...m.identities.values()].find(
      (i) => i.organization_id === organizationId && (i.name === nameOrId || i.id === nameOrId),
    );
  return {
    async create(identity, max) {
      const existing = [...m.identities.values()].filter(
        (i) => i.organization_id === identity.organization_id,
      );
      if (existing.some((i) => i.name === identity.name)) return 'duplicate';
      if (existing.length >= max) return 'limit';
      journaledSet(m.identities, identity.id, cloneIdentity(identity), journal);
      return 'created';
    },
    async list(organizationId) {
      return [...m.identities.values()]
        .filter((i) => i.organization_id === organizationId)
        .sort((a, b) => byCodeUnits(a.name, b.name))
        .map(cloneIdentity);
    },
    async get(organizationId, nameOrId) {
      const identity = find(organizationId, nameOrId);
      return identity ? cloneIdentity(identity) : null;
    },
    async remove(organizationId, nameOrId, at) {
      const identity = find(organizationId, nameOrId);
      if (!identity) return null;
      journaledDelete(m.identities, identity.id, journal);
      for (const [hash, token] of [...m.tokens]) {
        if (token.identity_id !== identity.id) continue;
        journaledDelete(m.tokens, hash, journal);
        const device = state.devices.get(token.device_id);
        if (device && device.status !== 'revoked')
          journaledAssign(device, { status: 'revoked', revoked_at: at }, journal);
      }
      return cloneIdentity(identity);
    },
    async issue(issue) {
      const { token, device } = issue;
      if (!m.identities.has(token.identity_id)) return 'identity_gone';
      const scope = `${token.organization_id}|${issue.issuer}|`;
      const now = Date.parse(issue.now);
      journaledDeleteWhere(m.jtis, (until, key) => key.startsWith(scope) && until < now, journal);
      if (m.jtis.has(scope + issue.jti)) return 'replayed';
      let live = 0;
      for (const key of m.jtis.keys()) if (key.startsWith(scope)) live++;
      if (live >= issue.max_jtis) return 'jti_limit';
      journaledSet(m.jtis, scope + issue.jti, Date.parse(issue.jti_expires_at), journal);
      journaledSet(state.devices, device.id, copy(device), journal);
      journaledSet(m.tokens, token.token_hash, copy(token), journal);
      return 'issued';
    },
    async findToken(tokenHash) {
      const token = m.tokens.get(tokenHash);
      const identity = token && m.identities.get(token.identity_id);
      return token && identity ? { token: copy(token), identity: cloneIdentity(identity) } : null;
    },
  };
}
