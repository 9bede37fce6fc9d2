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
import { inclusionProof } from '../activity/merkle/proofs.js';
import { toBase64 } from '../activity/note/base64.js';
import type { LatchkeyStore } from '../store/types.js';

/**
 * `tree` fields already read, by organization, seq and the event's chain hash (which fixes every
 * event before it, so the tree head too, even across a restore that rewrites a log): an event fans
 * out to each of its webhooks and is retried, and this keeps it to two reads per event. Bounded.
 */
export type DeliveredTreeCache = Map<string, string>;

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
  let field = cache?.get(key);
  if (field === undefined) {
    const read = await readField(store, organizationId, seq);
    if (read === null) return json;
    field = read;
    if (cache) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(key, field);
    }
  }
  return `${json.slice(0, -1)},"tree":${field}}`;
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
    // Two reads: the head at the event, then the proof's stored subtrees (all within that head).
    const head = await store.activity.treeHead(organizationId, seq);
    if (head?.size !== seq) return null;
    const hashes = await inclusionProof(seq - 1, seq, (addresses) =>
      store.activity.treeNodes(organizationId, addresses),
    );
    return JSON.stringify({
      tree_size: seq,
      root_hash: toBase64(head.rootHash),
      hashes: hashes.map(toBase64),
    });
  } catch {
    // The field is optional: a tree that cannot be read now (a back-fill, a lagging replica) must not hold the delivery.
    return null;
  }
}
