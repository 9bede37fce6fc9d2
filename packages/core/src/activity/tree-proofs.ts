/**
 * The proof service: checks the sizes a client asks about against the organization's tree, reads
 * the stored nodes a proof needs (one read), and answers in the API's shape, hashes in base64.
 */
import { toBase64 } from '../encoding/base64.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ActivityEvent } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';
import { consistencyProof, inclusionProof, type NodeReader } from './merkle/proofs.js';

const invalid = (path: string, message: string) =>
  new LatchkeyError('invalid_request', message, { details: [{ path, message }] });

/** The size of the organization's tree now (every event, once any back-fill is done). */
export async function treeSize(store: LatchkeyStore, organizationId: string): Promise<number> {
  return (await store.activity.treeHead(organizationId))?.size ?? 0;
}

const reader =
  (store: LatchkeyStore, organizationId: string): NodeReader =>
  (addresses) =>
    store.activity.treeNodes(organizationId, addresses);

/** `size`, or a 400 naming `path` when the tree is not that large yet. */
async function sizeWithin(
  store: LatchkeyStore,
  organizationId: string,
  size: number | undefined,
  path: string,
) {
  const latest = await treeSize(store, organizationId);
  if (size !== undefined && size > latest) {
    throw invalid(path, `The tree has ${latest} events; ${size} is beyond it.`);
  }
  return size ?? latest;
}

/** The inclusion proof of event `seq` in the tree of `size` events (default: the latest). */
export async function proveInclusion(
  store: LatchkeyStore,
  organizationId: string,
  seq: number,
  size?: number,
): Promise<{ leaf_index: number; tree_size: number; hashes: string[] }> {
  const treeSizeNow = await sizeWithin(store, organizationId, size, 'query.tree_size');
  if (seq > treeSizeNow) {
    throw invalid('query.seq', `Event ${seq} is not in the tree of ${treeSizeNow} events.`);
  }
  const hashes = await inclusionProof(seq - 1, treeSizeNow, reader(store, organizationId));
  return { leaf_index: seq - 1, tree_size: treeSizeNow, hashes: hashes.map(toBase64) };
}

/** The consistency proof from the tree of `from` events to that of `to` (default: the latest). */
export async function proveConsistency(
  store: LatchkeyStore,
  organizationId: string,
  from: number,
  to?: number,
): Promise<{ from: number; to: number; hashes: string[] }> {
  const toSize = await sizeWithin(store, organizationId, to, to === undefined ? 'query.from' : 'query.to');
  if (from > toSize) throw invalid('query.from', `from (${from}) is beyond to (${toSize}).`);
  const hashes = await consistencyProof(from, toSize, reader(store, organizationId));
  return { from, to: toSize, hashes: hashes.map(toBase64) };
}

/** Event `seq` of the organization, or a 404 when there is none. */
export async function eventAt(
  store: LatchkeyStore,
  organizationId: string,
  seq: number,
): Promise<ActivityEvent> {
  const [event] = await store.activity.list({
    organizationId,
    afterSeq: seq - 1,
    oldestFirst: true,
    limit: 1,
  });
  if (!event || event.seq !== seq) throw new LatchkeyError('not_found', `There is no event ${seq}.`);
  return event;
}
