/** Ed25519 public keys as users give them: the forms accepted, and private keys refused. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeEd25519PublicKey, parseEd25519PublicKey } from './ed25519-public-key.js';

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

describe('private keys sent as public_key', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

  it('refuses every private-key PEM and bare PKCS#8 DER', () => {
    const encrypted = privateKey
      .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'pw' })
      .toString();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ format: 'pem', type: 'sec1' })
      .toString();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'pem', type: 'pkcs1' })
      .toString();
    const openssh =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
    const der = privateKey.export({ format: 'der', type: 'pkcs8' });
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    for (const input of [
      pkcs8,
      encrypted,
      ec,
      rsa,
      openssh,
      der.toString('base64'),
      der.toString('base64url'),
      jwk,
    ]) {
      expect(parseEd25519PublicKey(input), input.slice(0, 30)).toEqual({ ok: false, reason: 'private_key' });
    }
  });

  it('accepts only the SPKI label, so a private key is never turned into its public half', () => {
    const body = pkcs8.split('\n').slice(1, -2).join('\n');
    const relabelled = `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----`;
    expect(parseEd25519PublicKey(relabelled).ok).toBe(false);
    const cert = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(parseEd25519PublicKey(cert)).toEqual({ ok: false, reason: 'not_ed25519' });
  });
});
