/**
 * The work of the bare routes: what a hand-written push endpoint would do at the least. Verify the
 * Ed25519 signature over the same payload core verifies, then apply the changes to a map of key
 * versions with the same optimistic `if_version` rule. No authentication, validation, nonce store or
 * activity log: this is the floor the adapters are compared against.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { pushSigningPayload } from '@latchkey/core/client';
import { ADDRESS } from './fixture.js';

/** What a bare route answers; each framework serialises `body` as JSON. */
export interface BareResult {
  status: number;
  body: unknown;
}

interface BarePush {
  client_sig?: unknown;
  changes?: { key: string; value?: string; delete?: true; if_version?: number }[];
}

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The key as a cached KeyObject (parsing it per request would cost more than verifying). */
export function ed25519PublicKey(rawBase64Url: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(rawBase64Url, 'base64url')]),
    format: 'der',
    type: 'spki',
  });
}

/** Builds the push handler of the bare routes: parsed JSON in, status and JSON body out. */
export function createBarePush(devicePublicKey: string): (json: unknown) => BareResult {
  const key = ed25519PublicKey(devicePublicKey);
  const versions = new Map<string, number>();
  return (json) => {
    const body = json as BarePush;
    if (typeof body?.client_sig !== 'string' || !Array.isArray(body.changes)) {
      return { status: 400, body: { error: 'bad request' } };
    }
    const payload = Buffer.from(pushSigningPayload(body as Record<string, unknown>, ADDRESS));
    if (!verify(null, payload, key, Buffer.from(body.client_sig, 'base64url'))) {
      return { status: 401, body: { error: 'bad signature' } };
    }
    for (const change of body.changes) {
      if (change.if_version !== undefined && change.if_version !== (versions.get(change.key) ?? 0)) {
        return { status: 409, body: { error: 'version conflict', key: change.key } };
      }
    }
    const out = body.changes.map((change) => {
      const version = (versions.get(change.key) ?? 0) + 1;
      versions.set(change.key, version);
      return { key: change.key, version };
    });
    return { status: 200, body: { versions: out } };
  };
}
