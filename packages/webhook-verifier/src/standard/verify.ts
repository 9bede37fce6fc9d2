/**
 * The Standard Webhooks path of the verifier: reads `webhook-id`, `webhook-timestamp` and
 * `webhook-signature`, checks the window and the signatures (`v1` with the secrets, `v1a` with the
 * public keys), and hands back what the replay check needs. The id is the signed `webhook-id`.
 */
import { WebhookVerificationError } from '../errors.js';
import { parseTimestamp } from '../format.js';
import { type HeadersInput, readHeader } from '../headers.js';
import type { StandardEngine } from './engine.js';
import { contentPrefix, parseStandardSignatures, STANDARD_HEADERS } from './format.js';

/** The imported keys of a verifier, for the Standard Webhooks schemes. @internal */
export interface StandardKeys<S, P> {
  engine: StandardEngine<S, P>;
  secrets: S[];
  publicKeys: P[];
}

/** What a Standard Webhooks delivery's headers say, read and checked for format. @internal */
export interface StandardHeaders {
  id: string;
  stamp: string;
  timestamp: number;
  signature: string;
}

function fail(
  code: 'missing_header' | 'malformed_signature' | 'malformed_timestamp',
  message: string,
): never {
  throw new WebhookVerificationError(code, message);
}

/** Reads the three headers, `signature` being the `webhook-signature` already read. */
export function readStandardHeaders(headers: HeadersInput, signature: string): StandardHeaders {
  const id = readHeader(headers, STANDARD_HEADERS.id, 'malformed_signature');
  const stamp = readHeader(headers, STANDARD_HEADERS.timestamp, 'malformed_timestamp');
  if (id === undefined) fail('missing_header', 'missing header webhook-id');
  if (stamp === undefined) fail('missing_header', 'missing header webhook-timestamp');
  const timestamp = parseTimestamp(stamp);
  if (timestamp < 0) fail('malformed_timestamp', 'webhook-timestamp must be unix seconds in plain digits');
  return { id, stamp, timestamp, signature };
}

/** Whether the delivery's signatures match one of the keys (a promise on Web Crypto). */
export function standardMatches<S, P>(
  keys: StandardKeys<S, P>,
  read: StandardHeaders,
  body: string | Uint8Array,
): boolean | Promise<boolean> {
  const signatures = parseStandardSignatures(read.signature);
  return keys.engine.matches(
    keys.secrets,
    keys.publicKeys,
    contentPrefix(read.id, read.stamp),
    body,
    signatures,
  );
}

/** Imports the secrets that are Standard Webhooks secrets and every public key. @internal */
export function importStandardKeys<S, P>(
  engine: StandardEngine<S, P>,
  secrets: readonly string[],
  publicKeys: readonly string[],
): StandardKeys<S, P> {
  return {
    engine,
    secrets: secrets.map((s) => engine.importSecret(s)).filter((k): k is S => k !== null),
    publicKeys: publicKeys.map((k) => engine.importPublicKey(k)),
  };
}
