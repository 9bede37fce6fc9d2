/**
 * Signing of audit webhook deliveries. The primitives come from `@latchkey/webhook-verifier`, the
 * package receivers verify with, so the sender and the receiver cannot drift apart.
 */
import { generateSigningSecret, type SignatureHeaders, signatureHeaders } from '@latchkey/webhook-verifier';

/** A delivery ready to send: the exact body bytes and the headers signed over them. */
export interface SignedDelivery {
  body: string;
  headers: SignatureHeaders & { 'Content-Type': 'application/json' };
}

/**
 * Serialises an event for delivery with `id` as the first member (the receiver's verifier then reads
 * the replay key without parsing the body) and signs it for `timestamp` (unix seconds). Every
 * delivery attempt is signed afresh with the time of that attempt.
 */
export function signDelivery(event: { id: string }, secret: string, timestamp: number): SignedDelivery {
  const { id, ...rest } = event;
  const body = JSON.stringify({ id, ...rest });
  return {
    body,
    headers: {
      ...signatureHeaders({ secret, body, eventId: id, timestamp }),
      'Content-Type': 'application/json',
    },
  };
}

/** A new signing secret: `whsec_` + 32 random bytes, base64url. The HMAC key is the whole string. */
export const newSigningSecret: () => string = generateSigningSecret;
