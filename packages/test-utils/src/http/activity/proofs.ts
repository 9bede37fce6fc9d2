/**
 * Item: the Merkle proofs of the activity log. Every event's inclusion proof and every consistency
 * proof checks against the signed checkpoints' root hashes; one event comes with its proof and the
 * checkpoint it is against; bad sizes are 400s with details; other members and tenants are refused.
 */
import { verifyCheckpoint } from '@latchkey/core';
import {
  type Checkpoint,
  eventLeafHash,
  fromBase64,
  verifyConsistency,
  verifyInclusion,
} from '@latchkey/core/client';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const ACTIVITY = '/api/v2/organizations/acme/activity';
const bytes = (text: string) => fromBase64(text)!;

/** Registers the proof tests. */
export function describeProofTests(ctx: ConformanceContext): void {
  describe('activity proofs', () => {
    async function checkpoint(): Promise<Checkpoint> {
      const response = await ctx.send('GET', `${ACTIVITY}/checkpoint`);
      expect(response.status).toBe(200);
      const signed = response.json as Checkpoint;
      expect(verifyCheckpoint(signed, ctx.auditPublicKey)).toBe(true);
      expect(signed.tree_size).toBe(signed.seq);
      return signed;
    }

    it('every event’s inclusion proof and the consistency proofs check against signed root hashes', async () => {
      const first = await checkpoint();
      await ctx.send('POST', '/api/v2/organizations/acme/projects', { slug: 'merkle-proofs', name: 'm' });
      const second = await checkpoint();
      expect(second.seq).toBeGreaterThan(first.seq);
      const events = (await ctx.events()).reverse().filter((e) => e.seq <= second.seq);
      for (const event of events) {
        const response = await ctx.send(
          'GET',
          `${ACTIVITY}/proofs/inclusion?seq=${event.seq}&tree_size=${second.seq}`,
        );
        expect(response.status).toBe(200);
        const proof = response.json as { leaf_index: number; tree_size: number; hashes: string[] };
        expect(proof.leaf_index).toBe(event.seq - 1);
        const input = {
          leafHash: eventLeafHash(event),
          leafIndex: proof.leaf_index,
          treeSize: proof.tree_size,
          hashes: proof.hashes.map(bytes),
          rootHash: bytes(second.root_hash!),
        };
        expect(verifyInclusion(input)).toBe(true);
        expect(
          verifyInclusion({ ...input, leafHash: eventLeafHash({ ...event, data: { forged: true } }) }),
        ).toBe(false);
      }
      const consistency = await ctx.send(
        'GET',
        `${ACTIVITY}/proofs/consistency?from=${first.seq}&to=${second.seq}`,
      );
      expect(consistency.status).toBe(200);
      const proof = consistency.json as { from: number; to: number; hashes: string[] };
      expect(proof).toMatchObject({ from: first.seq, to: second.seq });
      const input = {
        from: first.seq,
        to: second.seq,
        hashes: proof.hashes.map(bytes),
        fromRoot: bytes(first.root_hash!),
        toRoot: bytes(second.root_hash!),
      };
      expect(verifyConsistency(input)).toBe(true);
      expect(verifyConsistency({ ...input, fromRoot: bytes(second.root_hash!) })).toBe(false);
    });

    it('answers one event with its proof against the latest checkpoint', async () => {
      const [event] = (await ctx.events()).slice(-1);
      const response = await ctx.send('GET', `${ACTIVITY}/events/${event!.seq}`);
      expect(response.status).toBe(200);
      const body = response.json as {
        event: typeof event;
        proof: { leaf_index: number; tree_size: number; hashes: string[] };
        checkpoint: Checkpoint;
      };
      expect(body.event).toEqual(JSON.parse(JSON.stringify(event)));
      expect(verifyCheckpoint(body.checkpoint, ctx.auditPublicKey)).toBe(true);
      expect(body.proof.tree_size).toBe(body.checkpoint.tree_size);
      const input = {
        leafHash: eventLeafHash(body.event!),
        leafIndex: body.proof.leaf_index,
        treeSize: body.proof.tree_size,
        hashes: body.proof.hashes.map(bytes),
        rootHash: bytes(body.checkpoint.root_hash!),
      };
      expect(verifyInclusion(input)).toBe(true);
    });

    it('refuses bad sizes with details, and other members and tenants', async () => {
      const head = await checkpoint();
      const bad = [
        `${ACTIVITY}/proofs/inclusion?seq=0`,
        `${ACTIVITY}/proofs/inclusion?seq=1.5`,
        `${ACTIVITY}/proofs/inclusion?seq=x`,
        `${ACTIVITY}/proofs/inclusion`,
        `${ACTIVITY}/proofs/inclusion?seq=${head.seq + 100}`,
        `${ACTIVITY}/proofs/inclusion?seq=2&tree_size=1`,
        `${ACTIVITY}/proofs/inclusion?seq=1&tree_size=${head.seq + 100}`,
        `${ACTIVITY}/proofs/consistency?from=3&to=2`,
        `${ACTIVITY}/proofs/consistency?from=0&to=2`,
        `${ACTIVITY}/proofs/consistency?from=1&to=${head.seq + 100}`,
        `${ACTIVITY}/proofs/consistency?from=-1`,
        `${ACTIVITY}/events/0`,
        `${ACTIVITY}/events/abc`,
      ];
      for (const path of bad) {
        const body = expectError(await ctx.send('GET', path), 400, 'invalid_request') as {
          error: { details?: unknown[] };
        };
        expect(body.error.details?.length, path).toBeGreaterThan(0);
      }
      expectError(await ctx.send('GET', `${ACTIVITY}/events/${head.seq + 100}`), 404, 'not_found');
      for (const path of [
        `${ACTIVITY}/proofs/inclusion?seq=1`,
        `${ACTIVITY}/proofs/consistency?from=1`,
        `${ACTIVITY}/events/1`,
      ]) {
        expectError(await ctx.send('GET', path, undefined, ctx.developer.token), 403, 'forbidden');
        expectError(await ctx.send('GET', path, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      }
    });
  });
}
