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
import { rangeRoots } from '../activity/merkle/proofs.js';
import { inclusionRanges } from '../activity/merkle/ranges.js';
import { toBase64 } from '../activity/note/base64.js';
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
  if (!json.endsWith('}') || !Number.isSafeInteger(seq) || seq < 1) return json;
  const key = cache ? `${organizationId}:${seq}:${chainHash(json)}` : '';
  let pending = cache?.get(key);
  if (pending === undefined) {
    pending = readField(store, organizationId, seq);
    if (cache) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(key, pending);
      void pending.then((field) => {
        if (field === null) cache.delete(key);
      });
    }
  }
  const field = await pending;
  return field === null ? json : `${json.slice(0, -1)},"tree":${field}}`;
}

/** The stored event's own chain hash. */
function chainHash(json: string): string {
  try {
    return String((JSON.parse(json) as { hash?: unknown }).hash);
  } catch {
    return '';
  }
}

/** The `tree` field's JSON for the event at `seq`, or null when the tree does not reach it. */
async function readField(
  store: Pick<LatchkeyStore, 'activity'>,
  organizationId: string,
  seq: number,
): Promise<string | null> {
  try {
    // One read of stored nodes gives both the root of the first `seq` leaves and the event's audit
    // path in that tree; a node not stored yet (a back-fill) throws, and the field is left out.
    const [root, ...hashes] = await rangeRoots([[0, seq], ...inclusionRanges(seq - 1, seq)], (addresses) =>
      store.activity.treeNodes(organizationId, addresses),
    );
    return JSON.stringify({
      tree_size: seq,
      root_hash: toBase64(root!),
      hashes: hashes.map(toBase64),
    });
  } catch {
    // The field is optional: a tree that cannot be read now (a back-fill, a lagging replica) must not hold the delivery.
    return null;
  }
}
