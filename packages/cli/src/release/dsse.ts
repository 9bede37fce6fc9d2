/**
 * DSSE (Dead Simple Signing Envelope, v1): the signature covers the pre-authentication encoding
 * `DSSEv1 SP len(type) SP type SP len(body) SP body`, never the JSON around it, so the payload type
 * cannot be swapped. Release provenance is one envelope of an in-toto Statement, signed with Ed25519.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';

/** The payload type of an in-toto Statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** One DSSE envelope as JSON holds it: payload and signatures in standard base64. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/** The bytes a DSSE signature covers. Lengths are byte counts, in decimal ASCII. */
export function pae(payloadType: string, body: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.byteLength} `, 'utf8'),
    type,
    Buffer.from(` ${body.byteLength} `, 'utf8'),
    body,
  ]);
}

/** A key's id in an envelope: the hex SHA-256 of its SubjectPublicKeyInfo (DER). */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Reads an Ed25519 public key (SPKI PEM); throws a readable error for anything else. */
export function readEd25519PublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new Error('it is not a public key in PEM (SPKI, "BEGIN PUBLIC KEY")');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`it is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  }
  return key;
}

/** True when one of the envelope's signatures verifies with `publicKey` over the PAE bytes. */
export function verifyEnvelope(envelope: DsseEnvelope, publicKey: KeyObject): boolean {
  const body = Buffer.from(envelope.payload, 'base64');
  const signed = pae(envelope.payloadType, body);
  return envelope.signatures.some((s) => {
    try {
      return verify(null, signed, publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}
