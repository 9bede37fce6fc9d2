/**
 * A witness for the tests: a fresh Ed25519 key under a note key name, and its tlog-cosignature/v1
 * lines made from the spec (C2SP signed-note key hash with the 0x04 type, then the time and the
 * signature), not by the server's code.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** A witness made here: its name, raw public key (base64) and a cosigner written from the spec. */
export function witness(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { name, publicKey: raw.toString('base64'), cosign: cosigner(name, raw, privateKey) };
}

function cosigner(name: string, raw: Buffer, privateKey: KeyObject) {
  const keyHash = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.of(4))
    .update(raw)
    .digest()
    .subarray(0, 4);
  return (body: string, time: number): string => {
    const timestamp = Buffer.alloc(8);
    timestamp.writeBigUInt64BE(BigInt(time));
    const signature = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${body}`), privateKey);
    return `\u2014 ${name} ${Buffer.concat([keyHash, timestamp, signature]).toString('base64')}`;
  };
}
