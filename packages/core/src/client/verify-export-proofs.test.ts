import { describe, expect, it } from 'vitest';
import { type ChainHead, sealEvent } from '../activity/chain.js';
import { generateAuditKey, signCheckpoint, toAuditKey } from '../activity/checkpoint/checkpoint.js';
import { eventLeafHash } from '../activity/merkle/hashes.js';
import { inclusionProofs } from '../activity/merkle/proofs.js';
import { appendLeaves, EMPTY_TREE, treeRoot } from '../activity/merkle/tree-state.js';
import { toBase64 } from '../encoding/base64.js';
import type { ActivityEvent } from '../model/model.js';
import { verifyActivityExport } from './node-chain-crypto.js';

const key = generateAuditKey();
const auditKey = toAuditKey(key.privateKeyPem);
const options = { organization: 'acme', publicKey: key.publicKey };

function chain(n: number): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let head: ChainHead | null = null;
  for (let i = 1; i <= n; i++) {
    const draft = {
      id: `evt_${String(i).padStart(8, '0')}`,
      type: i % 3 ? 'push_applied' : 'project_created',
      occurred_at: new Date(Date.UTC(2026, 10, 24, 0, 0, i)).toISOString(),
      organization: 'acme',
      actor: { type: 'user' as const, id: 'admin' },
      data: { i },
    };
    const event: ActivityEvent = sealEvent(draft, head);
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

/** The lines a filtered export of `picked` (seqs) of `events` has: each event, its proof, the checkpoint. */
async function filteredExport(events: ActivityEvent[], picked: number[], tree = true): Promise<string[]> {
  const grown = appendLeaves(EMPTY_TREE, events.map(eventLeafHash));
  const nodes = new Map(grown.nodes.map((n) => [`${n.level}/${n.index}`, n.hash]));
  const size = events.length;
  const paths = await inclusionProofs(
    picked.map((seq) => seq - 1),
    size,
    async (addresses) => addresses.map((a) => nodes.get(`${a.level}/${a.index}`)!),
  );
  const lines = picked.flatMap((seq, i) => [
    JSON.stringify(events[seq - 1]),
    JSON.stringify({
      inclusion: { seq, leaf_index: seq - 1, tree_size: size, hashes: paths[i]!.map(toBase64) },
    }),
  ]);
  const last = events.at(-1)!;
  const head = { organization: 'acme', seq: last.seq, hash: last.hash };
  const treeHead = tree ? { tree_size: size, root_hash: toBase64(treeRoot(grown.tree)) } : {};
  const checkpoint = signCheckpoint({ ...head, ...treeHead }, auditKey, '2026-11-24T01:00:00.000Z');
  return [...lines, JSON.stringify({ checkpoint })];
}

const text = (lines: string[]) => `${lines.join('\n')}\n`;

describe('verifyActivityExport on a filtered export with inclusion proofs', () => {
  const events = chain(23);
  const picked = [3, 6, 7, 8, 15, 21];

  it('verifies events that skip positions of the chain, without the rest of the log', async () => {
    const verdict = await verifyActivityExport(text(await filteredExport(events, picked)), options);
    expect(verdict).toMatchObject({ ok: true, events: picked.length, head: { seq: 21 } });
  });

  it('fails an edited event, a flipped proof hash, a missing proof line or a foreign root', async () => {
    const lines = await filteredExport(events, picked);
    const edited = [...lines];
    const forged = sealEvent({ ...events[5]!, data: { i: 999 } }, { seq: 5, hash: events[4]!.hash });
    edited[2] = JSON.stringify(forged);
    expect(await verifyActivityExport(text(edited), options)).toMatchObject({
      ok: false,
      line: 3,
      reason: 'edited',
    });

    const flipped = [...lines];
    const proof = JSON.parse(flipped[3]!) as { inclusion: { hashes: string[] } };
    proof.inclusion.hashes[0] = toBase64(new Uint8Array(32).fill(7));
    flipped[3] = JSON.stringify(proof);
    expect(await verifyActivityExport(text(flipped), options)).toMatchObject({
      ok: false,
      line: 3,
      reason: 'edited',
    });

    const missing = lines.filter((_, i) => i !== 5);
    expect(await verifyActivityExport(text(missing), options)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });

    const other = await filteredExport(chain(24), picked);
    const mixed = [...lines.slice(0, -1), other.at(-1)!];
    expect(await verifyActivityExport(text(mixed), options)).toMatchObject({ ok: false });
  });

  it('needs a checkpoint that names a tree, signed by the key', async () => {
    const noTree = await filteredExport(events, picked, false);
    expect(await verifyActivityExport(text(noTree), options)).toMatchObject({
      ok: false,
      reason: 'checkpoint_invalid',
    });
    const unsigned = (await filteredExport(events, picked)).slice(0, -1);
    expect(await verifyActivityExport(text(unsigned), options)).toMatchObject({
      ok: false,
      reason: 'truncated',
    });
  });

  it('still refuses a plain export cut at the front, and a proof line out of place', async () => {
    const cut = events.slice(4).map((e) => JSON.stringify(e));
    expect(await verifyActivityExport(text(cut), { organization: 'acme' })).toMatchObject({
      ok: false,
      line: 1,
      reason: 'deleted',
    });
    const lines = await filteredExport(events, picked);
    const plainThenProof = [JSON.stringify(events[0]), JSON.stringify(events[1]), lines[1]!];
    expect(await verifyActivityExport(text(plainThenProof), { organization: 'acme' })).toMatchObject({
      ok: false,
      line: 3,
      reason: 'malformed',
    });
  });
});
