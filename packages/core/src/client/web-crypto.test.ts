import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealEvent } from '../activity/chain.js';
import {
  generateAuditKey,
  signCheckpoint,
  toAuditKey,
  verifyCheckpoint,
} from '../activity/checkpoint/checkpoint.js';
import { expectedEventHash, verifyCheckpointSignature } from './web-crypto.js';

const key = generateAuditKey();
const other = generateAuditKey();
const checkpoint = signCheckpoint(
  { organization: 'acme', seq: 7, hash: 'a'.repeat(64) },
  toAuditKey(key.privateKeyPem),
  '2026-11-27T00:00:00.000Z',
);
const pem = (raw: string) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(raw, 'base64url')]),
    format: 'der',
    type: 'spki',
  })
    .export({ format: 'pem', type: 'spki' })
    .toString();

describe('the WebCrypto checks agree with the server’s Node crypto', () => {
  it('hashes an event as sealEvent does, first or later in the chain', async () => {
    const draft = {
      id: 'evt_1',
      type: 'push_applied',
      occurred_at: '2026-11-27T00:00:00.000Z',
      organization: 'acme',
      project: undefined,
      actor: { type: 'user' as const, id: 'admin' },
      data: { note: 'é \u2028 😀', n: 1.5e21 },
    };
    const first = sealEvent(draft, null);
    const later = sealEvent({ ...draft, id: 'evt_2' }, { seq: 41, hash: 'b'.repeat(64) });
    expect(await expectedEventHash(first)).toBe(first.hash);
    expect(await expectedEventHash(later)).toBe(later.hash);
    expect(await expectedEventHash({ ...later, data: { note: 'edited' } })).not.toBe(later.hash);
  });

  it.each([
    ['the raw key', key.publicKey, true],
    ['the PEM key', pem(key.publicKey), true],
    ['another key', other.publicKey, false],
    ['another PEM key', pem(other.publicKey), false],
    ['a key too short', key.publicKey.slice(0, 20), false],
    ['no key', '', false],
    ['not a key', '!!!', false],
  ])('verifies a checkpoint with %s as verifyCheckpoint does', async (_, publicKey, ok) => {
    expect(verifyCheckpoint(checkpoint, publicKey)).toBe(ok);
    expect(await verifyCheckpointSignature(checkpoint, publicKey)).toBe(ok);
  });

  it('refuses an edited checkpoint or signature', async () => {
    for (const edited of [
      { ...checkpoint, seq: 8 },
      { ...checkpoint, signature: `${checkpoint.signature.slice(0, -4)}AAAA` },
      { ...checkpoint, signature: 'short' },
    ]) {
      expect(verifyCheckpoint(edited, key.publicKey)).toBe(false);
      expect(await verifyCheckpointSignature(edited, key.publicKey)).toBe(false);
    }
  });
});
