/**
 * Item: the owner registers the witnesses of the organization's transparency log. Names, keys and
 * duplicates are checked, another tenant sees nothing, and a key of small or mixed order is refused
 * as a device key is (the identity key would let R = identity, S = 0 cosign any head).
 */
import { createHash } from 'node:crypto';
import { MIXED_ORDER, SMALL_ORDER_CANONICAL } from '@latchkey/test-vectors/ed25519-weak-keys';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { witness } from './witness-signer.js';

const WITNESSES = '/api/v2/organizations/acme/activity/witnesses';

/** Registers the witness registration tests. */
export function describeWitnessRegistrationTests(ctx: ConformanceContext): void {
  describe('witness registration', () => {
    it('the owner registers witnesses; names, keys and duplicates are checked; another tenant sees nothing', async () => {
      const w = witness('w1.example.org/checkpoint-notes');
      const added = await ctx.send('POST', WITNESSES, { name: w.name, public_key: w.publicKey }, ADMIN);
      expect(added.status, added.text).toBe(201);
      expect(added.json).toMatchObject({
        name: w.name,
        public_key: w.publicKey,
        verifier_key: expect.stringMatching(/^w1\.example\.org\/checkpoint-notes\+[0-9a-f]{8}\+B/),
      });
      expectError(
        await ctx.send('POST', WITNESSES, { name: w.name, public_key: witness('x').publicKey }, ADMIN),
        409,
        'already_exists',
      );
      expectError(
        await ctx.send('POST', WITNESSES, { name: 'other.example', public_key: w.publicKey }, ADMIN),
        409,
        'already_exists',
      );
      expectError(
        await ctx.send('POST', WITNESSES, { name: 'a b', public_key: w.publicKey }, ADMIN),
        400,
        'invalid_request',
      );
      expectError(
        await ctx.send('POST', WITNESSES, { name: 'a+b', public_key: w.publicKey }, ADMIN),
        400,
        'invalid_request',
      );
      expectError(
        await ctx.send('POST', WITNESSES, { name: 'short.example', public_key: 'AAAA' }, ADMIN),
        400,
        'invalid_request',
      );
      // Its own verifier key form is taken too, under its own name only.
      const v = witness('w2.example.org/checkpoint-notes');
      const vkey = (added.json as { verifier_key: string }).verifier_key;
      expectError(
        await ctx.send('POST', WITNESSES, { name: v.name, public_key: vkey }, ADMIN),
        400,
        'invalid_request',
      );
      const listed = await ctx.send('GET', WITNESSES, undefined, ADMIN);
      expect((listed.json as { witnesses: { name: string }[] }).witnesses.map((x) => x.name)).toContain(
        w.name,
      );
      expectError(await ctx.send('GET', WITNESSES, undefined, OTHER_ORG_ADMIN), 404, 'not_found');
      const events = await ctx.events('witness_added');
      expect(events.at(-1)?.data).toEqual({ name: w.name, public_key: w.publicKey, verifier_key: vkey });
      const removed = await ctx.send(
        'DELETE',
        `${WITNESSES}/${encodeURIComponent(w.name)}`,
        undefined,
        ADMIN,
      );
      expect(removed.status, removed.text).toBe(200);
      expect((await ctx.events('witness_removed')).at(-1)?.data).toMatchObject({ name: w.name });
      expectError(
        await ctx.send('DELETE', `${WITNESSES}/${encodeURIComponent(w.name)}`, undefined, ADMIN),
        404,
        'not_found',
      );
    });

    it('a witness key of small or mixed order is refused as a device key is, in either form', async () => {
      const refusal = {
        message:
          'public_key is a weak Ed25519 key (small order, mixed order or a non-canonical encoding); generate a new key pair.',
        details: [{ path: 'body.public_key', message: 'a weak Ed25519 key' }],
      };
      for (const hex of [...SMALL_ORDER_CANONICAL, MIXED_ORDER[0]!]) {
        const raw = Buffer.from(hex, 'hex');
        const name = `weak-${hex.slice(0, 8)}.example/notes`;
        const answer = await ctx.send('POST', WITNESSES, { name, public_key: raw.toString('base64') }, ADMIN);
        expectError(answer, 400, 'invalid_request');
        expect((answer.json as { error: object }).error).toMatchObject(refusal);
        const hash = createHash('sha256').update(`${name}\n`).update(Buffer.of(4)).update(raw).digest();
        const vkey = `${name}+${hash.subarray(0, 4).toString('hex')}+${Buffer.concat([Buffer.of(4), raw]).toString('base64')}`;
        expectError(
          await ctx.send('POST', WITNESSES, { name, public_key: vkey }, ADMIN),
          400,
          'invalid_request',
        );
      }
      const listed = await ctx.send('GET', WITNESSES, undefined, ADMIN);
      expect(JSON.stringify(listed.json)).not.toContain('weak-');
    });
  });
}
