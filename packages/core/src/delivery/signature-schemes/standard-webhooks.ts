/**
 * The `standard-webhooks` scheme: `webhook-id` (the event id), `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, the key being the part after
 * `whsec_` decoded as standard base64, as the Standard Webhooks libraries read it. During a
 * rotation's grace period the old and the new secret both sign, space-separated.
 */
import { generateStandardSecret, standardSignatureHeaders } from '@latchkey/webhook-verifier';

/** The headers of a `standard-webhooks` delivery, one `v1` signature per secret (current first). */
export function standardWebhooksHeaders(
  secrets: readonly string[],
  body: string,
  eventId: string,
  timestamp: number,
): Record<string, string> {
  return standardSignatureHeaders({ secrets, body, eventId, timestamp });
}

/** A new `standard-webhooks` secret: `whsec_` + standard base64 of 32 random bytes. */
export const newStandardSecret: () => string = generateStandardSecret;
