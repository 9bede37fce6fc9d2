import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { inspectClientCertificate } from './client-certificate.js';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-client-cert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALGORITHMS = {
  rsa: ['rsa:2048'],
  ec: ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
  'ec-p384': ['ec', '-pkeyopt', 'ec_paramgen_curve:secp384r1'],
  ed25519: ['ed25519'],
} as const;

/** A self-signed certificate and its key, made by the real openssl. */
function selfSigned(name: string, type: keyof typeof ALGORITHMS, days = 2) {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  const algorithm = ALGORITHMS[type];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      ...algorithm,
      '-nodes',
      '-days',
      String(days),
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      `/O=Acme/CN=${name}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** An RSA key of 4160 bits: the test run's (seconds to make), or one made here when run without it. */
const rsa4160 = (): KeyObject => {
  const made = inject('rsaKeys')?.[4160];
  return made ? createPrivateKey(made) : generateKeyPairSync('rsa', { modulusLength: 4160 }).privateKey;
};

const ec = selfSigned('sender-ec', 'ec');
const rsa = selfSigned('sender-rsa', 'rsa');
const now = Date.now();

describe('a client certificate given to a webhook', () => {
  it('is accepted with its own key (EC or RSA), described, and its key kept as PKCS#8', () => {
    for (const pair of [ec, rsa]) {
      const inspected = inspectClientCertificate(pair.cert, pair.key, now);
      if (!inspected.ok) throw new Error(inspected.message);
      const x509 = new X509Certificate(pair.cert);
      expect(inspected.value).toMatchObject({
        subject: expect.stringMatching(/^O=Acme, CN=sender-/),
        fingerprint_sha256: x509.fingerprint256,
        not_after: new Date(x509.validTo).toISOString(),
      });
      expect(inspected.value.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(createPrivateKey(inspected.value.privateKey).asymmetricKeyType).toBe(
        createPrivateKey(pair.key).asymmetricKeyType,
      );
    }
  });

  it('takes EC P-384 and Ed25519 keys too', () => {
    for (const type of ['ec-p384', 'ed25519'] as const) {
      const pair = selfSigned(`sender-${type}`, type);
      expect(inspectClientCertificate(pair.cert, pair.key, now), type).toMatchObject({ ok: true });
    }
  });

  it('refuses keys whose handshakes cost too much or that TLS clients rarely use, naming the key', () => {
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const keys = {
      'RSA of 1024 bits': generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey,
      // Past 4096 bits each signature of a handshake grows by the cube: 16384 bits take most of a second.
      // The test run makes this key once for every test that wants one (scripts/test/rsa-keys.ts).
      'RSA of 4160 bits': rsa4160(),
      'EC on secp521r1': generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey,
      'EC on secp256k1': generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey,
      ED448: generateKeyPairSync('ed448').privateKey,
    };
    for (const [named, key] of Object.entries(keys)) {
      expect(inspectClientCertificate(ec.cert, pem(key), now), named).toEqual({
        ok: false,
        field: 'private_key',
        message: `the private key is ${named}: RSA of 2048-4096 bits, EC P-256 or P-384, or Ed25519 is expected`,
      });
    }
  });

  it('refuses a key that is not the certificate’s, naming the key', () => {
    expect(inspectClientCertificate(ec.cert, rsa.key, now)).toEqual({
      ok: false,
      field: 'private_key',
      message: 'the private key does not match the certificate',
    });
  });

  it('refuses an encrypted key, saying how to give it', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const encrypted = privateKey
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' })
      .toString();
    const inspected = inspectClientCertificate(ec.cert, encrypted, now);
    expect(inspected).toMatchObject({
      ok: false,
      field: 'private_key',
      message: expect.stringMatching(/encrypted.*openssl pkey/),
    });
  });

  it('refuses what does not parse, and a certificate that has expired', () => {
    expect(inspectClientCertificate('hello', ec.key, now)).toMatchObject({ ok: false, field: 'certificate' });
    // Its last line of base64 cut: the DER inside is truncated.
    const broken = ec.cert.replace(/\n[A-Za-z0-9+/=]+\n-----END/, '\n-----END');
    expect(broken).not.toBe(ec.cert);
    expect(inspectClientCertificate(broken, ec.key, now)).toMatchObject({ ok: false, field: 'certificate' });
    expect(inspectClientCertificate(ec.cert, 'not a key', now)).toMatchObject({
      ok: false,
      field: 'private_key',
    });
    const later = now + 3 * 86_400_000;
    expect(inspectClientCertificate(ec.cert, ec.key, later)).toMatchObject({
      ok: false,
      field: 'certificate',
      message: expect.stringMatching(/^the certificate expired at /),
    });
  });
});
