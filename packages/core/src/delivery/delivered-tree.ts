/**
 * The `tree` field a delivery adds to its event: the RFC 6962 tree head at the event (its first
 * `seq` events: `tree_size` = `seq`, `root_hash`) and the inclusion proof of the event's leaf in it
 * (`hashes`). The leaf is the last one, so its proof is also the proof that this tree extends the
 * one before it: folding the hashes alone gives the root at `seq - 1`. A receiver's witness
 * (`createChainWitness` of `@latchkey/webhook-verifier`) thus links tree heads as it links the hash
 * chain, from the event's own bytes, without calling the server. Added to the body text after the
 * stored event (whose chain hash covers the event only), so every signature scheme signs the same
 * bytes; absent while the tree is still being back-filled.
 */
import * as crypto from 'node:crypto';
import { subtreesOf } from '../activity/merkle/ranges.js';
import type { NodeAddress } from '../model/tree.js';
import type { LatchkeyStore } from '../store/types.js';

/**
 * `tree` fields read or being read, by organization, seq and the event's chain hash (which fixes
 * every event before it, so the tree head too, even across a restore that rewrites a log): an event
 * fans out to each of its webhooks, claimed together, and is retried; this keeps it to one read per
 * event. Bounded; a read that finds no tree is forgotten, so a back-filled tree is read again.
 */
export type DeliveredTreeCache = Map<string, Promise<string | null>>;

const CACHE_LIMIT = 4_096;

/** The event's JSON text with its `tree` field, or the text unchanged when the tree does not reach it. */
export async function withDeliveredTree(
  store: Pick<LatchkeyStore, 'activity'>,
  organizationId: string,
  seq: number,
  json: string,
  cache?: DeliveredTreeCache,
): Promise<string> {
  if (!carriesTree(json, seq)) return json;
  const key = cache ? cacheKey(organizationId, seq, json) : '';
  let pending = cache?.get(key);
  if (pending === undefined) {
    pending = readField(store, organizationId, seq);
    if (cache) remember(cache, key, pending);
  }
  const field = await pending;
  return field === null ? json : `${json.slice(0, -1)},"tree":${field}}`;
}

/**
 * Starts reading the `tree` fields of `events` into `cache`, those not in it yet: one read of stored
 * nodes per organization for all of them (the engine calls it with each claimed batch, so an
 * attempt finds its field read). A batch whose read fails is read again event by event, so one
 * event the tree does not reach yet leaves out only its own field.
 */
export function readDeliveredTrees(
  store: Pick<LatchkeyStore, 'activity'>,
  events: readonly { organizationId: string; seq: number; json: string }[],
  cache: DeliveredTreeCache,
): void {
  const wanted = new Map<string, Map<string, number>>();
  for (const { organizationId, seq, json } of events) {
    if (!carriesTree(json, seq)) continue;
    const key = cacheKey(organizationId, seq, json);
    if (cache.has(key)) continue;
    const keys = wanted.get(organizationId) ?? new Map<string, number>();
    keys.set(key, seq);
    wanted.set(organizationId, keys);
  }
  for (const [organizationId, keys] of wanted) {
    const fields = readFields(store, organizationId, [...new Set(keys.values())]);
    for (const [key, seq] of keys)
      remember(
        cache,
        key,
        fields.then((read) => read.get(seq) ?? null),
      );
  }
}

/** Whether the event can carry a `tree` field (an object with a seq the tree counts). */
function carriesTree(json: string, seq: number): boolean {
  return json.endsWith('}') && Number.isSafeInteger(seq) && seq >= 1;
}

function cacheKey(organizationId: string, seq: number, json: string): string {
  return `${organizationId}:${seq}:${chainHash(json)}`;
}

/** Keeps a read in the cache, bounded; a read that finds no tree is forgotten. */
function remember(cache: DeliveredTreeCache, key: string, pending: Promise<string | null>): void {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, pending);
  void pending.then((field) => {
    if (field === null && cache.get(key) === pending) cache.delete(key);
  });
}

/** The `,"hash":"` before the 64 hex digits and `"}` a stored event ends with (how events are written). */
const HASH_FIELD = ',"hash":"';
const HEX64 = /^[0-9a-f]{64}$/;

/** The stored event's own chain hash, read off its end without parsing the rest (every attempt asks). */
function chainHash(json: string): string {
  const at = json.length - 66;
  if (at > HASH_FIELD.length && json.endsWith('"}') && json.startsWith(HASH_FIELD, at - HASH_FIELD.length)) {
    const hash = json.slice(at, at + 64);
    if (HEX64.test(hash)) return hash;
  }
  try {
    return String((JSON.parse(json) as { hash?: unknown }).hash);
  } catch {
    return '';
  }
}

const base64 = (hash: Uint8Array) =>
  Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('base64');

/** Node's one-shot digest where it has one (20.12 on), faster than a hash object for 65 bytes. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer })
  .hash;
const scratch = Buffer.alloc(65);

/** The RFC 6962 interior node hash, SHA-256(0x01 || left || right), of two 32-byte hashes. */
function interior(left: Uint8Array, right: Uint8Array): Uint8Array {
  scratch[0] = 1;
  scratch.set(left, 1);
  scratch.set(right, 33);
  return oneShot
    ? oneShot('sha256', scratch, 'buffer')
    : crypto.createHash('sha256').update(scratch).digest();
}

/**
 * The stored nodes a field needs: the complete subtrees of `[0, seq)`, whose right fold is the root
 * of the tree at `seq`, and the audit path of its last leaf, leaf upward. RFC 6962's PATH of the
 * last leaf always takes the right branch, so each of its hashes is one complete subtree: those of
 * `[0, seq - 1)`, smallest first.
 */
const fieldNodes = (seq: number) => ({ root: subtreesOf(0, seq), path: subtreesOf(0, seq - 1).reverse() });

/**
 * The fields of events of one organization at `seqs`, from one read of the distinct nodes they all
 * need (consecutive events share most of them), each node encoded once. Throws when a node is not
 * stored (a back-fill).
 */
async function fieldsOf(
  store: Pick<LatchkeyStore, 'activity'>,
  organizationId: string,
  seqs: readonly number[],
): Promise<Map<number, string>> {
  const slot = new Map<number, number>();
  const distinct: NodeAddress[] = [];
  const slotOf = (address: NodeAddress) => {
    // A level is below 64 and an index below 2^47: one exact number names the node.
    const key = address.index * 64 + address.level;
    let i = slot.get(key);
    if (i === undefined) {
      i = distinct.push(address) - 1;
      slot.set(key, i);
    }
    return i;
  };
  const plans = seqs.map((seq) => {
    const { root, path } = fieldNodes(seq);
    return { seq, root: root.map(slotOf), path: path.map(slotOf) };
  });
  const hashes = await store.activity.treeNodes(organizationId, distinct);
  const encoded: (string | undefined)[] = [];
  const encode = (i: number) => {
    encoded[i] ??= base64(hashes[i]!);
    return encoded[i];
  };
  const fields = new Map<number, string>();
  for (const { seq, root, path } of plans) {
    // Every tree here holds at least one leaf.
    let rootHash = encode(root[root.length - 1]!);
    if (root.length > 1) {
      let hash = hashes[root[root.length - 1]!]!;
      for (let i = root.length - 2; i >= 0; i--) hash = interior(hashes[root[i]!]!, hash);
      rootHash = base64(hash);
    }
    let list = '';
    for (let i = 0; i < path.length; i++) list += `${i > 0 ? ',' : ''}"${encode(path[i]!)}"`;
    fields.set(seq, `{"tree_size":${seq},"root_hash":"${rootHash}","hashes":[${list}]}`);
  }
  return fields;
}

/** The `tree` field's JSON for the event at `seq`, or null when the tree does not reach it. */
async function readField(
  store: Pick<LatchkeyStore, 'activity'>,
  organizationId: string,
  seq: number,
): Promise<string | null> {
  try {
    return (await fieldsOf(store, organizationId, [seq])).get(seq)!;
  } catch {
    // The field is optional: a tree that cannot be read now (a back-fill, a lagging replica) must not hold the delivery.
    return null;
  }
}

/** The fields of several events of one organization from one read of the nodes they all need. */
async function readFields(
  store: Pick<LatchkeyStore, 'activity'>,
  organizationId: string,
  seqs: readonly number[],
): Promise<Map<number, string | null>> {
  try {
    return await fieldsOf(store, organizationId, seqs);
  } catch {
    const fields = await Promise.all(seqs.map((seq) => readField(store, organizationId, seq)));
    return new Map(seqs.map((seq, i) => [seq, fields[i]!]));
  }
}
