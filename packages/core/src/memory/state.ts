/** The maps behind the memory store, shared by its repositories, and the undo journal of a transaction. */
import { type ChainHead, sealEvent } from '../activity/chain.js';
import { owedState, type QueuedState } from '../delivery/outbox.js';
import type { RollupUnit } from '../metrics/rollup.js';
import type { ChangeRequest } from '../model/change-request.js';
import type {
  ActivityDraft,
  ActivityEvent,
  ApiToken,
  AuditWebhook,
  Delivery,
  DeliveryAttempt,
  Device,
  Environment,
  Member,
  Organization,
  Project,
  WebhookSigningKey,
} from '../model/model.js';
import type { KeyHead } from '../model/push-plan.js';
import type { Rollup } from '../model/rollup.js';
import type { StoredSecretVersion } from '../model/secret-version.js';
import { randomId } from '../runtime/ids.js';
import type { ReplayRange } from '../store/ports/deliveries.js';
import type { RestoreSession } from '../store/ports/restores.js';
import type { Cosignature, Witness } from '../store/ports/witnesses.js';
import { causingTraceparent } from '../telemetry/tracing.js';
import { growMemoryTree, type MemoryTrees } from './activity-tree.js';
import { DeliveryOutbox } from './delivery-outbox.js';

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
  /** The user who created each organization through the API, by organization id. */
  orgCreators: Map<string, string>;
  /** The replays under way by webhook id: what each covers, and the first `seq` not looked at yet. */
  replays: Map<string, ReplayRange & { organization_id: string; next_seq: number; last_seq: number }>;
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
  /** envId -> key -> its versions, oldest first */
  secretVersions: Map<string, Map<string, StoredSecretVersion[]>>;
  /** orgId -> chain */
  events: Map<string, ActivityEvent[]>;
  /** orgId -> its chain's Merkle tree */
  trees: MemoryTrees;
  webhooks: Map<string, AuditWebhook>;
  /** orgId -> its webhooks' ids, oldest first */
  webhooksByOrg: Map<string, string[]>;
  /**
   * Deliveries still owed (pending or held); delivered and cancelled ones are dropped. Kept in due
   * order by webhook too: a delivery whose due time changes is set again.
   */
  deliveries: DeliveryOutbox;
  /** webhookId -> its attempts, oldest first */
  attempts: Map<string, DeliveryAttempt[]>;
  /** `webhookId|minute|start` or `webhookId|hour|start` -> rollup */
  rollups: Map<string, StoredRollup>;
  /** `webhookId|boundary` -> the webhook's running total before that minute boundary */
  totals: Map<string, StoredTotal>;
  /** Called (soon, not synchronously) when deliveries are queued or released. */
  deliveryWatchers: Set<() => void>;
  /**
   * Staged restores and their parts (session id -> index -> part and its size as sent), and the
   * sessions being applied in steps (`claim`).
   */
  restores: {
    sessions: Map<string, RestoreSession>;
    parts: Map<string, Map<number, { data: string; bytes: number }>>;
    claimed: Set<string>;
  };
  /** Keyring key id -> its check value (null: recorded without one). */
  keyIds: Map<string, string | null>;
  /** key: orgId/name */
  witnesses: Map<string, Witness>;
  /** key: orgId/treeSize/rootHash/witness */
  cosignatures: Map<string, Cosignature>;
  /** Webhook signing key id -> the key pair, in insertion (creation) order. */
  signingKeys: Map<string, WebhookSigningKey>;
  /** Change request id -> the request. */
  changeRequests: Map<string, ChangeRequest>;
}

/** A minute or hour rollup of one webhook. */
export interface StoredRollup {
  organization_id: string;
  webhook_id: string;
  unit: RollupUnit;
  /** Start, in milliseconds. */
  start: number;
  rollup: Rollup;
}

/** A webhook's running total: the sum of its attempts that started before `boundary`. */
export interface StoredTotal {
  organization_id: string;
  webhook_id: string;
  /** The minute boundary, in milliseconds. */
  boundary: number;
  rollup: Rollup;
}

/**
 * Undo steps of the writes made in a transaction, replayed newest first on rollback; `null` outside
 * a transaction, where every write is one synchronous step and needs no undo.
 */
export type Journal = (() => void)[] | null;

/** Deletes the entries of `map` whose value `doomed` picks, each with its undo; returns how many. */
export function deleteWhere<K, V>(map: Map<K, V>, journal: Journal, doomed: (value: V) => boolean): number {
  let removed = 0;
  for (const [key, value] of [...map]) {
    if (!doomed(value)) continue;
    map.delete(key);
    journal?.push(() => map.set(key, value));
    removed++;
  }
  return removed;
}

/** A new, empty state. */
export function createState(maxNonces: number): MemoryState {
  return {
    maxNonces,
    orgs: new Map(),
    orgBySlug: new Map(),
    orgCreators: new Map(),
    replays: new Map(),
    projects: new Map(),
    environments: new Map(),
    members: new Map(),
    tokens: new Map(),
    tokenByHash: new Map(),
    devices: new Map(),
    nonces: new Map(),
    secrets: new Map(),
    secretVersions: new Map(),
    events: new Map(),
    trees: new Map(),
    webhooks: new Map(),
    webhooksByOrg: new Map(),
    deliveries: new DeliveryOutbox(),
    attempts: new Map(),
    rollups: new Map(),
    totals: new Map(),
    deliveryWatchers: new Set(),
    restores: { sessions: new Map(), parts: new Map(), claimed: new Set() },
    keyIds: new Map(),
    witnesses: new Map(),
    cosignatures: new Map(),
    signingKeys: new Map(),
    changeRequests: new Map(),
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
  const target = chain;
  journal?.push(() => target.pop());
  growMemoryTree(state.trees, journal, organizationId, [event]);
  enqueueDeliveries(state, journal, organizationId, event);
  return event;
}

/**
 * The outbox, in the same step as the event: a delivery per webhook of the organization that the
 * fan-out rule says is owed one (see `outboxState`).
 */
function enqueueDeliveries(
  state: MemoryState,
  journal: Journal,
  organizationId: string,
  event: ActivityEvent,
): void {
  let queued = false;
  for (const webhookId of state.webhooksByOrg.get(organizationId) ?? []) {
    const webhook = state.webhooks.get(webhookId)!;
    const starts = owedState(webhook, event.type);
    if (starts === null) continue;
    const delivery = newDelivery(
      webhook,
      event.id,
      event.seq,
      starts,
      event.occurred_at,
      causingTraceparent(),
    );
    queueDelivery(state, journal, delivery);
    queued ||= starts === 'pending';
  }
  if (queued) notifyDeliveryWatchers(state);
}

/** Adds a new delivery to the outbox (undone by its removal). */
export function queueDelivery(state: MemoryState, journal: Journal, delivery: Delivery): void {
  state.deliveries.set(delivery.id, delivery);
  journal?.push(() => state.deliveries.delete(delivery.id));
}

/**
 * Tells the watchers deliveries are due, after the current step: inside a transaction, a watcher's
 * claim waits for it to end and so sees only what was committed.
 */
export function notifyDeliveryWatchers(state: MemoryState): void {
  if (state.deliveryWatchers.size === 0) return;
  queueMicrotask(() => {
    for (const watcher of state.deliveryWatchers) watcher();
  });
}

/** A new delivery of an event to a webhook. */
export function newDelivery(
  webhook: AuditWebhook,
  eventId: string,
  eventSeq: number,
  state: QueuedState,
  at: string,
  traceparent: string | null = null,
): Delivery {
  return {
    id: randomId('dlv'),
    organization_id: webhook.organization_id,
    webhook_id: webhook.id,
    event_id: eventId,
    event_seq: eventSeq,
    state,
    attempts: 0,
    next_attempt_at: at,
    lease_until: null,
    created_at: at,
    traceparent,
  };
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
