/** The schemas of webhook signature schemes and the organization's webhook signing keys. */
import { z } from 'zod';

/** How a webhook's deliveries are signed. */
export const SignatureSchemeSchema = z
  .enum(['latchkey', 'standard-webhooks', 'standard-webhooks-ed25519'])
  .describe(
    'latchkey (default): X-Service-* headers, HMAC-SHA256 hex; standard-webhooks: webhook-id/-timestamp/-signature with v1 HMAC-SHA256 (whsec_ secret, standard base64); standard-webhooks-ed25519: v1a Ed25519 signatures, verified with the public keys of GET …/audit-webhooks/signing-keys (no secret)',
  );

/** One published signing key. */
export const SigningKeySchema = z.strictObject({
  id: z.string(),
  public_key: z.string().describe('whpk_ + standard base64 of the raw 32-byte Ed25519 public key'),
  status: z
    .enum(['current', 'retiring'])
    .describe('current: signs; retiring: still signs beside the current key until retires_at'),
  created_at: z.string(),
  retires_at: z.string().nullable(),
});

export const SigningKeysResponse = z.strictObject({
  signing_keys: z
    .array(SigningKeySchema)
    .describe('the keys that sign now, oldest first; empty until a webhook uses standard-webhooks-ed25519'),
});
