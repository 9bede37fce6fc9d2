/** The maps behind the memory store, shared by its repositories, and the undo journal of a transaction. */
import { type ChainHead, sealEvent } from '../../activity.js';
import type { KeyHead } from '../../conflicts.js';
import type {
  ActivityDraft,
  ActivityEvent,
  ApiToken,
  Device,
  Environment,
  Member,
  Organization,
  Project,
} from '../../model.js';

/** One stored key of an environment. */
export interface StoredSecret {
  head: KeyHead;
  value: string | null;
  updated_at: string;
}

/** Everything the memory store holds. */
export interface MemoryState {
  maxNonces: number;
  orgs: Map<string, Organization>;
  orgBySlug: Map<string, Organization>;
  /** key: orgId/slug */
  projects: Map<string, Project>;
  /** key: projectId/slug */
  environments: Map<string, Environment>;
  /** key: orgId/user */
  members: Map<string, Member>;
  tokens: Map<string, ApiToken>;
  tokenByHash: Map<string, ApiToken>;
  devices: Map<string, Device>;
  /** key: scope/nonce -> expiresAt */
  nonces: Map<string, number>;
  /** envId -> key -> secret */
  secrets: Map<string, Map<string, StoredSecret>>;
  /** orgId -> chain */
  events: Map<string, ActivityEvent[]>;
}

/**
 * Undo steps of the writes made in a transaction, replayed newest first on rollback; `null` outside
 * a transaction, where every write is one synchronous step and needs no undo.
 */
export type Journal = (() => void)[] | null;

/** A new, empty state. */
export function createState(maxNonces: number): MemoryState {
  return {
    maxNonces,
    orgs: new Map(),
    orgBySlug: new Map(),
    projects: new Map(),
    environments: new Map(),
    members: new Map(),
    tokens: new Map(),
    tokenByHash: new Map(),
    devices: new Map(),
    nonces: new Map(),
    secrets: new Map(),
    events: new Map(),
  };
}

// Records handed out are copies, so callers can never change the store by mutating them. Flat
// records get a cheap shallow copy; nested ones (members' grants, events' data) a deep one.
export const clone = <T>(value: T): T => structuredClone(value);
export const copy = <T extends object>(value: T): T => ({ ...value });

/** Seals `draft` after the organization's chain head and appends it (undone by a pop). */
export function appendEvent(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  draft: ActivityDraft,
): ActivityEvent {
  let chain = state.events.get(organizationId);
  if (!chain) {
    chain = [];
    state.events.set(organizationId, chain);
  }
  const last = chain[chain.length - 1];
  const head: ChainHead | null = last ? { seq: last.seq, hash: last.hash } : null;
  const event = sealEvent(draft, head);
  chain.push(event);
  if (journal) {
    const target = chain;
    journal.push(() => {
      target.pop();
    });
  }
  return event;
}

/** Inserts `record` under `key` unless the key is taken (then nothing is written): one atomic step. */
export function insertUnique<T>(
  map: Map<string, T>,
  key: string,
  record: T,
  journal: Journal,
): 'created' | 'exists' {
  if (map.has(key)) return 'exists';
  map.set(key, record);
  journal?.push(() => map.delete(key));
  return 'created';
}

/**
 * The records of `map` that match, sorted by `sortKey` in code-unit order (as SQL's `COLLATE "C"`,
 * so every store lists in the same order), each handed out as a copy.
 */
export function listSorted<T>(
  map: Map<string, T>,
  matches: (record: T) => boolean,
  sortKey: (record: T) => string,
  out: (record: T) => T,
): T[] {
  return [...map.values()]
    .filter(matches)
    .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0))
    .map(out);
}
