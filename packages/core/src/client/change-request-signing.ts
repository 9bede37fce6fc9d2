/**
 * Client-side signing for change requests: the request body (a push's, signed with
 * `"purpose": "change_request"`) and a device-signed approval over the request's digest. The server
 * verifies the same bytes (`changes/approval-signature.ts`, `secrets/signatures.ts`).
 */
import { createHash, type KeyObject, sign } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PushAddress } from '../secrets/signatures.js';
import { type BodySigner, signerFor, type UnsignedPush } from './push.js';

/** A change request's body before signing: a push's fields, a title and a description. */
export interface UnsignedChangeRequest extends UnsignedPush {
  title: string;
  description?: string;
}

/** Signs a change request for `address`; the body to `POST …/change-requests`. */
export const signChangeRequest: BodySigner<UnsignedChangeRequest> = signerFor('change_request');

/** A change as the digest covers it: with its value (null for a delete). */
export interface DigestChange {
  key: string;
  action: 'set' | 'delete';
  if_version: number;
  value: string | null;
}

/**
 * The digest an approval signs: lowercase hex SHA-256 of the JCS of the request's
 * `{organization, project, environment, changes}`, each change with its value.
 */
export function changeRequestDigest(address: PushAddress, changes: readonly DigestChange[]): string {
  const text = canonicalize({
    organization: address.organization,
    project: address.project,
    environment: address.environment,
    changes: changes.map(({ key, action, if_version, value }) => ({ key, action, if_version, value })),
  });
  return createHash('sha256')
    .update(text ?? '')
    .digest('hex');
}

/** The bytes of an approval's signature: the JCS of `{change_request, digest, signed_at}`. */
export function approvalSigningPayload(changeRequest: string, digest: string, signedAt: number): string {
  return canonicalize({ change_request: changeRequest, digest, signed_at: signedAt }) ?? '';
}

/** A signed approval's fields for `POST …/approve`, signed now with the device's key. */
export function signApproval(
  changeRequest: string,
  digest: string,
  deviceId: string,
  privateKey: KeyObject,
  now: () => number = Date.now,
): { device_id: string; signed_at: number; signature: string } {
  const signed_at = Math.floor(now() / 1000);
  const payload = approvalSigningPayload(changeRequest, digest, signed_at);
  return {
    device_id: deviceId,
    signed_at,
    signature: sign(null, Buffer.from(payload), privateKey).toString('base64url'),
  };
}
