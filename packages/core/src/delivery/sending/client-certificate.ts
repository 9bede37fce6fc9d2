/**
 * A webhook's mTLS client certificate as given at create or PATCH: parsed with node:crypto, its key
 * checked against it, refused when it cannot work (unparsable, expired, a key that is not the
 * certificate's, an encrypted key) or would cost too much: every full handshake signs with the key
 * on the sending process's thread, so only keys whose signatures are cheap are taken (RSA of
 * 2048-4096 bits, EC P-256 or P-384, Ed25519; an RSA-16384 signature takes that thread for most of
 * a second). The key is kept as unencrypted PKCS#8 PEM, which the caller
 * seals with the keyring: a passphrase would have to be stored beside it, sealed the same way, so
 * it would protect nothing more.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';

/** What is stored and shown of an accepted certificate (the key still in clear: the caller seals it). */
export interface InspectedClientCertificate {
  /** The certificate (and any intermediates after it) in PEM, as given, normalised line ends. */
  certificate: string;
  /** The private key as PKCS#8 PEM. */
  privateKey: string;
  subject: string;
  issuer: string;
  fingerprint_sha256: string;
  not_before: string;
  not_after: string;
}

/** Why a certificate was refused: which field, and why (never the key's content). */
export interface ClientCertificateFault {
  field: 'certificate' | 'private_key';
  message: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const iso = (date: string) => new Date(date).toISOString();

/** Parses the certificate chain's blocks; the first is the client's own. */
function certificates(pem: string): X509Certificate[] | string {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return 'a PEM certificate (-----BEGIN CERTIFICATE-----) is expected';
  if (blocks.length > 5) return 'at most 5 certificates: the client certificate and its intermediates';
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch {
    return 'the certificate does not parse as X.509';
  }
}

/** The private key, or why it is refused. */
function privateKey(pem: string): KeyObject | string {
  if (!pem.includes('-----BEGIN')) return 'a PEM private key is expected';
  if (/ENCRYPTED/.test(pem)) {
    return 'the private key is encrypted: give it unencrypted (openssl pkey -in key.pem -out plain.pem); it is sealed with the keyring here';
  }
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === 'ERR_MISSING_PASSPHRASE'
      ? 'the private key is encrypted: give it unencrypted (openssl pkey -in key.pem -out plain.pem); it is sealed with the keyring here'
      : 'the private key does not parse (PKCS#8, PKCS#1 or SEC1 PEM expected)';
  }
}

/** The client keys taken: what TLS signs with cheaply. */
const CLIENT_KEY_TYPES = 'RSA of 2048-4096 bits, EC P-256 or P-384, or Ed25519';
const RSA_BITS = { min: 2048, max: 4096 };
const CURVES: Readonly<Record<string, string>> = { prime256v1: 'P-256', secp384r1: 'P-384' };

/** Why `key` is not a client key this sender presents, or null when it is. */
function keyTypeFault(key: KeyObject): string | null {
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  if (type === 'ed25519') return null;
  if (type === 'rsa' || type === 'rsa-pss') {
    const bits = details.modulusLength ?? 0;
    if (bits >= RSA_BITS.min && bits <= RSA_BITS.max) return null;
    return `the private key is RSA of ${bits} bits: ${CLIENT_KEY_TYPES} is expected`;
  }
  if (type === 'ec' && details.namedCurve !== undefined && CURVES[details.namedCurve] !== undefined)
    return null;
  const named =
    type === 'ec' ? `EC on ${details.namedCurve ?? 'an unnamed curve'}` : (type ?? 'unknown').toUpperCase();
  return `the private key is ${named}: ${CLIENT_KEY_TYPES} is expected`;
}

/** The certificate and key accepted, or the fault that refuses them. */
export function inspectClientCertificate(
  certificatePem: string,
  privateKeyPem: string,
  nowMs: number,
): { ok: true; value: InspectedClientCertificate } | ({ ok: false } & ClientCertificateFault) {
  const chain = certificates(certificatePem.replace(/\r\n/g, '\n'));
  if (typeof chain === 'string') return { ok: false, field: 'certificate', message: chain };
  const leaf = chain[0]!;
  if (Date.parse(leaf.validTo) <= nowMs) {
    return { ok: false, field: 'certificate', message: `the certificate expired at ${iso(leaf.validTo)}` };
  }
  const key = privateKey(privateKeyPem);
  if (typeof key === 'string') return { ok: false, field: 'private_key', message: key };
  const costly = keyTypeFault(key);
  if (costly !== null) return { ok: false, field: 'private_key', message: costly };
  if (!leaf.checkPrivateKey(key)) {
    return { ok: false, field: 'private_key', message: 'the private key does not match the certificate' };
  }
  return {
    ok: true,
    value: {
      certificate: `${chain.map((c) => c.toString().trim()).join('\n')}\n`,
      privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
      subject: leaf.subject.replace(/\n/g, ', '),
      issuer: leaf.issuer.replace(/\n/g, ', '),
      fingerprint_sha256: leaf.fingerprint256,
      not_before: iso(leaf.validFrom),
      not_after: iso(leaf.validTo),
    },
  };
}
