/**
 * The `latchkey` scheme (the default): `X-Service-Timestamp`, `X-Service-Signature: sha256=<hex>` and
 * `X-Service-Event-Id`, exactly as before schemes existed. One secret: its header has room for one
 * signature, so a rotation replaces the secret at once.
 */
import { signatureHeaders } from '@latchkey/webhook-verifier';

/** The headers of a `latchkey` delivery of `body` at `timestamp` (unix seconds). */
export function latchkeyHeaders(
  secret: string,
  body: string,
  eventId: string,
  timestamp: number,
): Record<string, string> {
  return signatureHeaders({ secret, body, eventId, timestamp });
}
