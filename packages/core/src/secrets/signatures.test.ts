import {
  MIXED_ORDER,
  SMALL_ORDER_CANONICAL,
  SMALL_ORDER_NON_CANONICAL,
  SOUND_KEYS,
  SPECCHECK_CASES,
  toBase64Url,
} from '@latchkey/test-vectors/ed25519-weak-keys';
import { ed25519 } from '@noble/curves/ed25519';
import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair, signPush } from '../client/push.js';
import { checkEd25519PublicKey, isAcceptedEd25519Key } from '../encoding/ed25519-key-check.js';
import { parseEd25519PublicKey } from '../encoding/ed25519-public-key.js';
import { pushSigningPayload, verifyClientSignature } from './signatures.js';

const address = { organization: 'acme', project: 'web', environment: 'prod' };

/** The raw bytes (hex) of a freshly generated Ed25519 public key. */
const generateRaw = () => Buffer.from(generateDeviceKeyPair().publicKey, 'base64url').toString('hex');

describe('weak Ed25519 keys', () => {
  const bytes = (hex: string) => Buffer.from(hex, 'hex');

  it('refuses the 8 small-order points', () => {
    for (const hex of SMALL_ORDER_CANONICAL) {
      expect(checkEd25519PublicKey(bytes(hex)), hex).toEqual({ ok: false, reason: 'small_order' });
      expect(parseEd25519PublicKey(toBase64Url(hex)), hex).toEqual({ ok: false, reason: 'weak_key' });
    }
  });

  it('refuses a weak key given as SPKI PEM too', () => {
    const der = Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      bytes(SMALL_ORDER_CANONICAL[0]!),
    ]);
    const pem = `-----BEGIN PUBLIC KEY-----\n${der.toString('base64')}\n-----END PUBLIC KEY-----\n`;
    expect(parseEd25519PublicKey(pem)).toEqual({ ok: false, reason: 'weak_key' });
  });

  it('refuses the 6 non-canonical encodings of small-order points', () => {
    for (const hex of SMALL_ORDER_NON_CANONICAL) {
      expect(checkEd25519PublicKey(bytes(hex)), hex).toEqual({ ok: false, reason: 'non_canonical' });
      expect(isAcceptedEd25519Key(toBase64Url(hex)), hex).toBe(false);
    }
  });

  it('refuses keys of mixed order and bytes that are not a point; accepts sound keys', () => {
    for (const hex of MIXED_ORDER) {
      expect(checkEd25519PublicKey(bytes(hex)), hex).toEqual({ ok: false, reason: 'not_torsion_free' });
    }
    // y = 2 is not on the curve.
    const offCurve = `02${'00'.repeat(31)}`;
    expect(checkEd25519PublicKey(bytes(offCurve))).toEqual({ ok: false, reason: 'not_a_point' });
    expect(checkEd25519PublicKey(bytes(offCurve).subarray(1))).toEqual({ ok: false, reason: 'not_a_point' });
    for (const hex of SOUND_KEYS) expect(checkEd25519PublicKey(bytes(hex)), hex).toEqual({ ok: true });
    for (let i = 0; i < 20; i++) expect(checkEd25519PublicKey(bytes(generateRaw())).ok).toBe(true);
  });

  it('refuses a generated key plus each torsion point (mixed order)', () => {
    const base = ed25519.Point.fromHex(generateRaw());
    for (const hex of SMALL_ORDER_CANONICAL.slice(1)) {
      const mixed = base.add(ed25519.Point.fromHex(hex)).toBytes();
      expect(checkEd25519PublicKey(mixed), hex).toEqual({ ok: false, reason: 'not_torsion_free' });
    }
  });

  it('verifies none of the ed25519-speccheck cases, whose keys are weak or signatures invalid', () => {
    const address = { organization: 'o', project: 'p', environment: 'e' };
    for (const [i, c] of SPECCHECK_CASES.entries()) {
      const accepted = isAcceptedEd25519Key(toBase64Url(c.pub_key));
      expect(accepted, `case ${i}`).toBe(SOUND_KEYS.includes(c.pub_key));
      // The raw message is not a push payload, so check the key gate and the primitive separately.
      const sig = Buffer.from(c.signature, 'hex').toString('base64url');
      expect(verifyClientSignature(toBase64Url(c.pub_key), {}, address, sig), `case ${i}`).toBe(false);
      const strict = ed25519.verify(bytes(c.signature), bytes(c.message), bytes(c.pub_key), {
        zip215: false,
      });
      expect(accepted && strict, `case ${i}`).toBe(false);
    }
  });

  it('never verifies the forged signature of the identity key', () => {
    const identity = toBase64Url(SMALL_ORDER_CANONICAL[0]!);
    const forged = Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]).toString('base64url');
    expect(verifyClientSignature(identity, { any: 'thing' }, address, forged)).toBe(false);
  });
});

describe('client_sig', () => {
  it('signs the JCS of the body without client_sig, with the address added', () => {
    const keys = generateDeviceKeyPair();
    const body = signPush(
      { device_id: 'dev_12345678', changes: [{ key: 'A', value: '1' }] },
      address,
      keys.privateKey,
    );
    expect(verifyClientSignature(keys.publicKey, body, address, body.client_sig)).toBe(true);
    expect(pushSigningPayload(body, address)).toBe(
      `{"changes":[{"key":"A","value":"1"}],"device_id":"dev_12345678","environment":"prod","nonce":"${body.nonce}","organization":"acme","project":"web","signed_at":${body.signed_at}}`,
    );
    expect(
      verifyClientSignature(keys.publicKey, { ...body, force_overwrite: true }, address, body.client_sig),
    ).toBe(false);
    expect(verifyClientSignature(keys.publicKey, body, { ...address, project: 'api' }, body.client_sig)).toBe(
      false,
    );
    expect(verifyClientSignature(generateDeviceKeyPair().publicKey, body, address, body.client_sig)).toBe(
      false,
    );
    expect(verifyClientSignature(keys.publicKey, body, address, 'short')).toBe(false);
  });
});
