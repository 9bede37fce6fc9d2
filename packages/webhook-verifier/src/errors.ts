/** Every way a delivery can fail verification. The strings are stable: match on them, not on messages. */
export type VerificationErrorCode =
  | 'missing_header'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'replayed'
  | 'invalid_body';

/** All codes, in the order the checks run. */
export const VERIFICATION_ERROR_CODES: readonly VerificationErrorCode[] = [
  'missing_header',
  'malformed_signature',
  'malformed_timestamp',
  'timestamp_too_old',
  'timestamp_in_future',
  'signature_mismatch',
  'invalid_body',
  'replayed',
];

// A registered symbol, so two copies of this package (ESM and CJS, or two versions) recognise each
// other's errors where `instanceof` would not.
const BRAND: unique symbol = Symbol.for('@latchkey/webhook-verifier/error') as never;

/**
 * The only error the verifier throws for a bad delivery. Infrastructure failures (for example a
 * Redis replay store that cannot be reached) are not wrapped: they are not the sender's fault and
 * should become a 5xx so the sender retries.
 */
export class WebhookVerificationError extends Error {
  /** Stable machine-readable reason. */
  readonly code: VerificationErrorCode;
  /** HTTP status a receiver should answer with; see {@link responseStatusFor}. */
  readonly status: number;
  readonly [BRAND] = true;

  constructor(code: VerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
    this.status = responseStatusFor(code);
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is WebhookVerificationError {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }
}

/** Same as {@link WebhookVerificationError.is}, as a plain function. */
export function isWebhookVerificationError(value: unknown): value is WebhookVerificationError {
  return WebhookVerificationError.is(value);
}

const STATUS: Record<VerificationErrorCode, number> = {
  missing_header: 400,
  malformed_signature: 400,
  malformed_timestamp: 400,
  invalid_body: 400,
  timestamp_too_old: 401,
  timestamp_in_future: 401,
  signature_mismatch: 401,
  // The sender retries anything that is not 2xx and dead-letters the webhook in the end. A repeated id
  // is usually a retry of a delivery whose 2xx got lost, so acknowledge it and do nothing.
  replayed: 200,
};

/**
 * The one table from error code to the HTTP status a receiver should answer. `replayed` maps to 200 on
 * purpose: the event was already accepted, and a non-2xx answer would make the sender retry it.
 */
export function responseStatusFor(code: VerificationErrorCode): number {
  return STATUS[code];
}
