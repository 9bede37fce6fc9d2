/**
 * Item: a backup's Merkle tree. A backup's checkpoint signs the tree head at its chain head
 * (`tree_size`, `root_hash`); a restore rebuilds the tree from the events and takes the history in
 * only when the root is that one, so the restored log is provably the one the backup's source
 * served (its tree extends the backup's, checked by a consistency proof). A history altered and
 * resealed under a trusted key, with a tree head the events do not rebuild, is a 422
 * `backup_invalid` that writes nothing; a checkpoint without a tree head (an older backup) is held
 * to its chain head, as before.
 */
import { signCheckpoint, toAuditKey } from '@latchkey/core';
import { type Checkpoint, fromBase64, verifyConsistency } from '@latchkey/core/client';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { type Line, linesOf, rechain, restoreHelpers } from './restore-helpers.js';

/** Registers the tests of the tree a restore rebuilds. */
export function describeRestoreTreeTests(ctx: ConformanceContext): void {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);
  const as = (token: string) => (method: string, path: string) =>
    ctx.send(method, `/api/v2/organizations/${path}`, undefined, token);
  const trusted = ctx.trustedAuditKey.privateKeyPem;

  /** A source organization with a little history, and its backup's lines. */
  let fixture: Promise<Line[]> | undefined;
  const source = () => {
    fixture ??= (async () => {
      const token = await newOrganization('tree-src');
      for (const slug of ['web', 'api', 'ops']) {
        const created = await ctx.send('POST', '/api/v2/organizations/tree-src/projects', { slug }, token);
        expect(created.status).toBe(201);
      }
      return linesOf(await backupOf('tree-src', token));
    })();
    return fixture;
  };
  /** `lines` with the header's checkpoint signed again by the trusted key, over `fields`. */
  const resigned = (lines: Line[], fields: Partial<Checkpoint>): Line[] => {
    const header = lines[0] as Line & { checkpoint: Checkpoint };
    const { organization, seq, hash, tree_size, root_hash } = { ...header.checkpoint, ...fields };
    const head = { organization, seq, hash, ...(root_hash === undefined ? {} : { tree_size, root_hash }) };
    const checkpoint = signCheckpoint(head, toAuditKey(trusted), new Date().toISOString());
    return [{ ...header, checkpoint }, ...lines.slice(1)];
  };
  const checkpointOf = async (token: string, slug: string) => {
    const answer = await as(token)('GET', `${slug}/activity/checkpoint`);
    expect(answer.status).toBe(200);
    return answer.json as Checkpoint;
  };

  describe('restore: the Merkle tree', () => {
    it('restores a backup whose events rebuild the root its checkpoint signs, and the restored tree extends it', async () => {
      const lines = await source();
      const signed = (lines[0] as { checkpoint: Checkpoint }).checkpoint;
      const chain = (lines[0] as { chain: { seq: number } }).chain;
      expect(signed).toMatchObject({ tree_size: chain.seq, root_hash: expect.any(String) });

      const token = await newOrganization('tree-ok');
      expect((await restoreLines('tree-ok', token, lines)).status).toBe(200);
      // The restored log is the backup's, then the backup_restored event: its tree extends the backup's.
      const after = await checkpointOf(token, 'tree-ok');
      expect(after.tree_size).toBe(signed.seq + 1);
      const proof = await as(token)(
        'GET',
        `tree-ok/activity/proofs/consistency?from=${signed.tree_size}&to=${after.tree_size}`,
      );
      expect(proof.status).toBe(200);
      const { hashes } = proof.json as { hashes: string[] };
      const input = {
        from: signed.tree_size!,
        to: after.tree_size!,
        fromRoot: fromBase64(signed.root_hash!)!,
        toRoot: fromBase64(after.root_hash!)!,
        hashes: hashes.map((h) => fromBase64(h)!),
      };
      expect(verifyConsistency(input)).toBe(true);
    });

    it('refuses a history altered and resealed under a trusted key whose tree has another root, writing nothing', async () => {
      const lines = await source();
      const original = (lines[0] as { checkpoint: Checkpoint }).checkpoint;
      const token = await newOrganization('tree-forged');
      const before = await checkpointOf(token, 'tree-forged');

      // One event's time moved, the chain sealed again and signed by a key the server trusts, but
      // the checkpoint still names the tree head of the history as it was.
      const marker = lines.findIndex((l) => l.kind === 'events');
      const altered = lines.map((l, i) =>
        i === marker + 2 ? { ...l, occurred_at: '2020-01-01T00:00:00.000Z' } : l,
      );
      const resealed = rechain(altered, trusted);
      const { seq, hash } = resealed[0]!['chain'] as { seq: number; hash: string };
      const forged = resigned(resealed, {
        seq,
        hash,
        tree_size: original.tree_size!,
        root_hash: original.root_hash!,
      });
      refused(
        await restoreLines('tree-forged', token, forged),
        /line 1: .*Merkle tree.*not the root its checkpoint signs/,
      );

      // A tree head that is not the chain head's, or half of one, is refused too.
      const wrongSize = resigned(lines, { tree_size: original.seq - 1 });
      refused(
        await restoreLines('tree-forged', token, wrongSize),
        /line 1: .*tree of \d+ events at chain head/,
      );
      const noSize = resigned(lines, { tree_size: undefined });
      refused(await restoreLines('tree-forged', token, noSize), /line 1: .*root hash without a size/);

      // Nothing was written: the organization's log and tree are as they were.
      const after = await checkpointOf(token, 'tree-forged');
      expect({ seq: after.seq, root: after.root_hash }).toEqual({ seq: before.seq, root: before.root_hash });
      const projects = await as(token)('GET', 'tree-forged/projects');
      expect((projects.json as { projects: unknown[] }).projects).toEqual([]);
    });

    it('holds a checkpoint without a tree head (an older backup) to its chain head, and rebuilds the tree', async () => {
      const lines = await source();
      // The same history under a checkpoint that signs the chain head only, as backups did before.
      const older = rechain(lines, trusted);
      expect((older[0] as { checkpoint: Checkpoint }).checkpoint.root_hash).toBeUndefined();
      const token = await newOrganization('tree-older');
      expect((await restoreLines('tree-older', token, older)).status).toBe(200);
      const original = (lines[0] as { checkpoint: Checkpoint }).checkpoint;
      // The rebuilt tree at the backup's size is the source's tree.
      const at = await as(token)(
        'GET',
        `tree-older/activity/proofs/consistency?from=${original.seq}&to=${original.seq + 1}`,
      );
      const after = await checkpointOf(token, 'tree-older');
      const input = {
        from: original.tree_size!,
        to: after.tree_size!,
        fromRoot: fromBase64(original.root_hash!)!,
        toRoot: fromBase64(after.root_hash!)!,
        hashes: (at.json as { hashes: string[] }).hashes.map((h) => fromBase64(h)!),
      };
      expect(verifyConsistency(input)).toBe(true);
    });
  });
}
