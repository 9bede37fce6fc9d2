/**
 * The Merkle tree heads a delivered event proves (RFC 6962, as Latchkey's activity log keeps them):
 * its `tree` field holds the root of the tree of the organization's first `seq` events and the
 * inclusion proof of this event's leaf, the last one. Folding the proof over the leaf gives that
 * root; folding the proof alone gives the root of the `seq - 1` events before it (the proof's
 * hashes are exactly that tree's complete subtrees). So each delivery links two tree heads, as
 * `prev_hash` and `hash` link the chain, and a receiver checks them without calling the server.
 * Copied here, a few lines, so the verifier stays standalone; Latchkey's own tests check both agree.
 * Web Crypto only, for both entry points.
 */

/** The optional `tree` field of a delivered event. */
export interface DeliveredTree {
  /** The size of the tree the root is of: the event's `seq`. */
  tree_size: number;
  /** The RFC 6962 root hash, standard base64. */
  root_hash: string;
  /** The inclusion proof of the event's leaf (index `seq - 1`), standard base64, leaf to root. */
  hashes: string[];
}

/** The two tree heads a delivery proves, as standard base64 roots. */
export interface TreeLink {
  /** The root of the first `seq - 1` events. */
  previousRoot: string;
  /** The root of the first `seq` events (equal to `tree.root_hash`). */
  root: string;
}

/** The root of the empty tree (SHA-256 of nothing), where every log's tree starts. */
export const EMPTY_TREE_ROOT = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

const encoder = new TextEncoder();

/** RFC 8785 (JCS) of a value parsed from JSON: members sorted by UTF-16 code units, ES number and string forms. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

const node = (left: Uint8Array, right: Uint8Array) => sha256(Uint8Array.of(1), left, right);

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** Bytes of a standard base64 SHA-256 hash, or null. */
function hashOf(text: unknown): Uint8Array | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(text)) return null;
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/**
 * The tree heads `event` proves with its `tree` field (the event's other members are its leaf), or
 * a reason it proves nothing: a malformed field, a size other than `seq`, or a proof that does not
 * lead from the event to `root_hash` (the event or the proof was altered).
 */
export async function deliveredTreeLink(
  event: { seq: number; tree?: unknown } & Record<string, unknown>,
): Promise<TreeLink | string> {
  const { tree, ...leaf } = event;
  const field = tree as Partial<DeliveredTree> | null | undefined;
  if (!field || typeof field !== 'object' || !Array.isArray(field.hashes))
    return 'the tree field is malformed';
  if (field.tree_size !== event.seq)
    return `the tree is of ${field.tree_size} events, not of the first ${event.seq}`;
  const root = hashOf(field.root_hash);
  const path = field.hashes.map(hashOf);
  if (!root || path.some((h) => h === null)) return 'the tree field is malformed';
  const hashes = path as Uint8Array[];
  // The last leaf's proof holds one hash per complete subtree of the tree before it: a longer or
  // shorter one would fold into the root of some other size.
  if (hashes.length !== subtreeCount(event.seq - 1)) return 'the proof has the wrong length for the tree';
  let computed = await sha256(Uint8Array.of(0), encoder.encode(canonicalJson(leaf)));
  for (const sibling of hashes) computed = await node(sibling, computed);
  if (toBase64(computed) !== field.root_hash)
    return 'the inclusion proof does not lead from the event to root_hash';
  // The same hashes, alone, fold into the root before the event (no hash: the empty tree).
  let previous = hashes[0] ?? null;
  for (const sibling of hashes.slice(1)) previous = await node(sibling, previous!);
  return { previousRoot: previous ? toBase64(previous) : EMPTY_TREE_ROOT, root: field.root_hash };
}

/** The number of complete subtrees of a tree of `size` leaves: the 1 bits of `size`. */
function subtreeCount(size: number): number {
  let count = 0;
  for (let n = size; n > 0; n = Math.floor(n / 2)) count += n % 2;
  return count;
}
