/**
 * The `v1a` (Ed25519) rows' references. The `standardwebhooks` and `svix` libraries verify only
 * `v1` HMAC signatures, so the peers of our `standard-webhooks-ed25519` row are the raw limit (one
 * node:crypto Ed25519 verification of precomputed content, nothing else) and what a JavaScript
 * receiver would write without us: the Standard Webhooks headers read and the 300 s window checked
 * as the library does, then `@noble/curves`' Ed25519 (pure JavaScript, the audited library of the
 * field), no replay protection.
 */
import { createPublicKey, verify } from 'node:crypto';
import { standardSignatureHeaders } from '@latchkey/webhook-verifier';
import { ed25519 } from '@noble/curves/ed25519';

/** One verification of pool body `i`; truthy when it verified. */
export type Op = (i: number) => unknown;

/** The signing key pair both rows use, as our generator makes it (`whpk_`/PEM). */
interface Keys {
  publicKey: string;
  privateKey: string;
}

const idOf = (n: number) => `msg_${n.toString(36).padStart(12, '0')}`;

/** The headers our sender makes for each body, and the signed content `id.timestamp.body`. */
function signed(keys: Keys, bodies: Buffer[], timestamp: number) {
  return bodies.map((body, n) => {
    const headers = standardSignatureHeaders({
      privateKeys: [keys.privateKey],
      eventId: idOf(n),
      body,
      timestamp,
    });
    const content = Buffer.concat([Buffer.from(`${idOf(n)}.${timestamp}.`), body]);
    return { headers, content };
  });
}

const rawKey = (whpk: string) => Buffer.from(whpk.slice('whpk_'.length), 'base64');

/** The limit: `crypto.verify` of the precomputed content and signature, nothing else. */
export function rawEd25519(keys: Keys, bodies: Buffer[], timestamp: number): Op {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), rawKey(keys.publicKey)]),
    format: 'der',
    type: 'spki',
  });
  const items = signed(keys, bodies, timestamp).map(({ headers, content }) => ({
    content,
    signature: Buffer.from(headers['webhook-signature']!.slice('v1a,'.length), 'base64'),
  }));
  return (i) => verify(null, items[i]!.content, key, items[i]!.signature);
}

/** A receiver's own `v1a` check: headers, window, content, `@noble/curves` Ed25519; parses the event. */
export function nobleReceiver(keys: Keys, bodies: Buffer[], timestamp: number): Op {
  const publicKey = rawKey(keys.publicKey);
  const headers = signed(keys, bodies, timestamp).map(({ headers }) => headers);
  return (i) => {
    const h = headers[i]!;
    const id = h['webhook-id']!;
    const at = Number(h['webhook-timestamp']);
    if (Math.abs(Date.now() / 1000 - at) > 300) throw new Error('timestamp outside the window');
    const content = Buffer.concat([Buffer.from(`${id}.${at}.`), bodies[i]!]);
    const ok = h['webhook-signature']!.split(' ').some(
      (entry) =>
        entry.startsWith('v1a,') && ed25519.verify(Buffer.from(entry.slice(4), 'base64'), content, publicKey),
    );
    if (!ok) throw new Error('no valid signature');
    return JSON.parse(bodies[i]!.toString());
  };
}
