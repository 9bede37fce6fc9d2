import type {
  RawBody,
  SignInput,
  VerificationErrorCode,
  WebhookVerifier,
  WebhookVerifierOptions,
} from '../src/index.js';
import * as node from '../src/index.js';
import * as web from '../src/web.js';

/** A fixed, valid-looking signing secret: `whsec_` + 32 bytes base64url. */
export const SECRET = 'whsec_Q2xlYXJseSBub3QgYSByZWFsIHNlY3JldCwgc2F5IGl0IQ';
/** A second secret, for rotation. */
export const OTHER_SECRET = 'whsec_QW5vdGhlciB0ZXN0IHNlY3JldCwganVzdCBhcyBmYWtlLg';
/** 2026-11-22T10:00:00Z in unix seconds: the tests' "now". */
export const NOW_S = 1_795_341_600;
export const NOW_MS = NOW_S * 1000;

/** The same API on both runtimes; `sign` is made async so one suite can drive either. */
export interface VerifierApi {
  name: string;
  createWebhookVerifier<T = node.WebhookEvent>(options: WebhookVerifierOptions): WebhookVerifier<T>;
  sign(input: SignInput): Promise<string>;
}

export const nodeApi: VerifierApi = {
  name: 'node:crypto',
  createWebhookVerifier: node.createWebhookVerifier,
  sign: async (input) => node.sign(input),
};

export const webApi: VerifierApi = {
  name: 'Web Crypto',
  createWebhookVerifier: web.createWebhookVerifier,
  sign: web.sign,
};

/** A Latchkey-like event body with `id` first, as the sender serialises it. */
export function eventBody(id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, type: 'push_applied', organization: 'acme', ...extra });
}

/** Delivery headers signed with node:crypto (the sender's primitive). */
export function deliveryHeaders(
  body: RawBody,
  options: { secret?: string; timestamp?: number | string } = {},
): Record<string, string> {
  const timestamp = String(options.timestamp ?? NOW_S);
  return {
    'X-Service-Timestamp': timestamp,
    'X-Service-Signature': node.sign({ secret: options.secret ?? SECRET, timestamp, body }),
  };
}

/** Awaits a verification expected to fail and returns its code; fails on anything but our error. */
export async function codeOf(promise: Promise<unknown>): Promise<VerificationErrorCode | 'accepted'> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (!node.isWebhookVerificationError(error)) throw error;
    return error.code;
  }
}
