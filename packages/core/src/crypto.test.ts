import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair, signPush } from './client.js';
import {
  generateApiToken,
  hashToken,
  normalizeEd25519PublicKey,
  pushSigningPayload,
  verifyClientSignature,
} from './crypto.js';

const address = { organization: 'acme', project: 'web', environment: 'prod' };

describe('device keys', () => {
  it('accepts SPKI PEM and raw base64url and stores the raw form', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const raw = normalizeEd25519PublicKey(pem);
    expect(raw).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(normalizeEd25519PublicKey(raw!)).toBe(raw);
  });

  it('refuses keys of other types and malformed input', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    expect(normalizeEd25519PublicKey(rsa)).toBeNull();
    expect(normalizeEd25519PublicKey('not a key')).toBeNull();
    expect(normalizeEd25519PublicKey('A'.repeat(42))).toBeNull();
    expect(
      normalizeEd25519PublicKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----'),
    ).toBeNull();
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

describe('API tokens', () => {
  it('are lk_ + 32 random bytes and stored as SHA-256', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiToken()).not.toBe(token);
  });
});
