/**
 * The two Standard Webhooks schemes, which differ only in their keys. Both send `webhook-id` (the
 * event id), `webhook-timestamp` and `webhook-signature` over "id.timestamp.body":
 * - `standard-webhooks`: `v1,<base64 HMAC-SHA256>`, the key being the part after `whsec_` decoded
 *   as standard base64, as the Standard Webhooks libraries read it. During a rotation's grace
 *   period the old and the new secret both sign, space-separated.
 * - `standard-webhooks-ed25519`: `v1a,<base64 Ed25519 signature>`, signed with the organization's
 *   webhook signing keys (every key that signs at the attempt's time: two during a rotation's grace
 *   period). Receivers verify with the `whpk_` public keys of `GET .../audit-webhooks/signing-keys`
 *   and hold no secret.
 */
import type { KeyObject } from 'node:crypto';
import {
  generateSigningKeyPair,
  generateStandardSecret,
  standardSignatureHeaders,
} from '@latchkey/webhook-verifier';

/** What signs a Standard Webhooks delivery: the secrets (current first), or the private keys. */
export type StandardMaterial =
  | { scheme: 'standard-webhooks'; secrets: readonly string[] }
  | { scheme: 'standard-webhooks-ed25519'; privateKeys: readonly KeyObject[] };

/** The headers of a Standard Webhooks delivery: one `v1` signature per secret, or one `v1a` per private key. */
export function standardHeaders(
  material: StandardMaterial,
  body: string,
  eventId: string,
  timestamp: number,
): Record<string, string> {
  const keys =
    material.scheme === 'standard-webhooks'
      ? { secrets: material.secrets }
      : { privateKeys: material.privateKeys };
  return standardSignatureHeaders({ ...keys, body, eventId, timestamp });
}

/** A new `standard-webhooks` secret: `whsec_` + standard base64 of 32 random bytes. */
export const newStandardSecret: () => string = generateStandardSecret;

/** A new key pair: the `whpk_` public key and the PKCS#8 PEM private key (to seal at once). */
export const newSigningKeyPair: () => { publicKey: string; privateKey: string } = generateSigningKeyPair;
