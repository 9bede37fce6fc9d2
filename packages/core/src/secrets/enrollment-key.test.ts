import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateDeviceKeyPair } from '../client/push.js';
import { isLatchkeyError } from '../errors/latchkey-error.js';
import { enrollmentKey } from './enrollment-key.js';

/** The error `enrollmentKey` throws for `publicKey`. */
function refusal(publicKey: string) {
  try {
    enrollmentKey(publicKey);
  } catch (error) {
    if (isLatchkeyError(error)) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('enrollmentKey', () => {
  it('answers the raw base64url key of an Ed25519 public key', () => {
    const { publicKey } = generateDeviceKeyPair();
    expect(enrollmentKey(publicKey)).toBe(publicKey);
    const { publicKey: spki } = generateKeyPairSync('ed25519');
    expect(enrollmentKey(spki.export({ format: 'pem', type: 'spki' }).toString())).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it('refuses a private key without repeating it', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const error = refusal(pem);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^public_key is a private key\./);
    expect(error.details).toEqual([{ path: 'body.public_key', message: 'a private key, not a public key' }]);
    expect(JSON.stringify(error.toBody())).not.toContain(pem.split('\n')[1]);
  });

  it('refuses what is not Ed25519, and weak keys', () => {
    expect(refusal('not a key').details?.[0]?.message).toMatch(/^not an Ed25519 key/);
    // The identity point: a key of small order.
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    expect(refusal(identity.toString('base64url')).details).toEqual([
      { path: 'body.public_key', message: 'a weak Ed25519 key' },
    ]);
  });
});
