/**
 * The tree a restore rebuilds: the first pass's fold equals the RFC 6962 reference over the events'
 * canonical bytes; a checkpoint's tree head is held to its chain head; a signed root the events do
 * not rebuild, and a store whose grown tree has another root, are 422 `backup_invalid`.
 */
import { describe, expect, it } from 'vitest';
import { sealEvent } from '../../activity/chain.js';
import { eventLeafData } from '../../activity/merkle/hashes.js';
import { referenceTree } from '../../activity/merkle/rfc6962-reference.js';
import { toBase64 } from '../../encoding/base64.js';
import { LatchkeyError } from '../../errors/latchkey-error.js';
import type { ActivityEvent } from '../../model/model.js';
import type { StoreTransaction } from '../../store/types.js';
import { checkSignedTreeHead, checkWrittenTree, TreeCheck } from './tree.js';

function history(n: number): ActivityEvent[] {
  const out: ActivityEvent[] = [];
  for (let i = 0; i < n; i++) {
    const last = out.at(-1);
    const draft = {
      id: `evt_${i}`,
      type: 'project_created',
      occurred_at: '2026-11-25T00:00:00.000Z',
      organization: 'acme',
      actor: { type: 'user' as const, id: 'alice' },
      data: { i },
    };
    out.push(sealEvent(draft, last ? { seq: last.seq, hash: last.hash } : null));
  }
  return out;
}

const referenceRoot = (events: readonly ActivityEvent[]) =>
  toBase64(referenceTree(events.map(eventLeafData)).root(events.length));

/** Expects `run` to throw a 422 backup_invalid whose message matches `message`. */
async function refused(run: () => unknown, message: RegExp) {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(LatchkeyError);
  expect((caught as LatchkeyError).code).toBe('backup_invalid');
  expect((caught as LatchkeyError).message).toMatch(message);
}

/** A transaction whose store tree answers `head` at any size. */
const txWithTree = (head: { size: number; rootHash: Uint8Array } | null) =>
  ({ activity: { treeHead: async () => head } }) as unknown as StoreTransaction;

describe('the tree a restore rebuilds', () => {
  it('folds the history to the RFC 6962 root, for sizes around the powers of two', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 257]) {
      const events = history(n);
      const check = new TreeCheck();
      for (const event of events) check.take(event);
      expect(check.finish({})).toEqual({ size: n, rootHash: referenceRoot(events), signed: false });
    }
  });

  it('accepts the root its checkpoint signs, and refuses another', async () => {
    const events = history(9);
    const rootHash = referenceRoot(events);
    const check = new TreeCheck();
    for (const event of events) check.take(event);
    expect(check.finish({ tree_size: 9, root_hash: rootHash })).toEqual({ size: 9, rootHash, signed: true });
    const other = referenceRoot(history(8));
    await refused(
      () => check.finish({ tree_size: 9, root_hash: other }),
      /line 1: its history rebuilds a Merkle tree of 9 events .* not the root its checkpoint signs/,
    );
  });

  it('holds a checkpoint’s tree head to its chain head', async () => {
    const root = referenceRoot(history(3));
    expect(() => checkSignedTreeHead({ seq: 3 })).not.toThrow();
    expect(() => checkSignedTreeHead({ seq: 3, tree_size: 3, root_hash: root })).not.toThrow();
    await refused(
      () => checkSignedTreeHead({ seq: 3, tree_size: 2, root_hash: root }),
      /tree of 2 events at chain head 3/,
    );
    await refused(() => checkSignedTreeHead({ seq: 3, root_hash: root }), /root hash without a size/);
    await refused(() => checkSignedTreeHead({ seq: 3, tree_size: 3 }), /without a root hash|without a size/);
    await refused(
      () => checkSignedTreeHead({ seq: 3, tree_size: 3, root_hash: 'AAAA' }),
      /not a base64 SHA-256 hash/,
    );
  });

  it('refuses a store whose grown tree has another root, or none', async () => {
    const events = history(5);
    const expected = { size: 5, rootHash: referenceRoot(events), signed: true };
    const good = referenceTree(events.map(eventLeafData)).root(5);
    await expect(checkWrittenTree(txWithTree({ size: 5, rootHash: good }), 'org_1', expected)).resolves.toBe(
      undefined,
    );
    const bad = referenceTree(history(4).map(eventLeafData)).root(4);
    await refused(
      () => checkWrittenTree(txWithTree({ size: 5, rootHash: bad }), 'org_1', expected),
      /not the root its checkpoint signs/,
    );
    await refused(
      () => checkWrittenTree(txWithTree(null), 'org_1', { ...expected, signed: false }),
      /not the root of its events/,
    );
  });
});
