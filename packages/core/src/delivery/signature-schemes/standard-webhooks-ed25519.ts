/**
 * The `standard-webhooks-ed25519` scheme: the Standard Webhooks headers with `v1a,<base64 Ed25519
 * signature>` over the same content, signed with the organization's webhook signing keys (every key
 * that signs at the attempt's time: two during a rotation's grace period). Receivers verify with the
 * `whpk_` public keys of `GET .../audit-webhooks/signing-keys` and hold no secret.
 */
import type { KeyObject } from 'node:crypto';
import { generateSigningKeyPair, standardSignatureHeaders } from '@latchkey/webhook-verifier';

/** The headers of a `standard-webhooks-ed25519` delivery, one `v1a` signature per private key. */
export function ed25519Headers(
  privateKeys: readonly KeyObject[],
  body: string,
  eventId: string,
  timestamp: number,
): Record<string, string> {
  return standardSignatureHeaders({ privateKeys, body, eventId, timestamp });
}

/** A new key pair: the `whpk_` public key and the PKCS#8 PEM private key (to seal at once). */
export const newSigningKeyPair: () => { publicKey: string; privateKey: string } = generateSigningKeyPair;
