/** Device-key and `client_sig` primitives. */
import { verify as verifySignature } from 'node:crypto';
import canonicalize from 'canonicalize';
import { isAcceptedEd25519Key } from '../encoding/ed25519-key-check.js';
import { ed25519KeyObject } from '../encoding/ed25519-public-key.js';

/** Where a push is addressed; added to the signed payload so a signature cannot be replayed elsewhere. */
export interface PushAddress {
  organization: string;
  project: string;
  environment: string;
}

/**
 * What a signed body is for. A change request's payload carries `"purpose": "change_request"` and a
 * push's carries no purpose, so neither signature verifies as the other.
 */
export type SigningPurpose = 'push' | 'change_request';

/**
 * The exact bytes a device signs for a push: the RFC 8785 (JCS) canonical JSON of the push body
 * without `client_sig`, with `organization`, `project` and `environment` added (and, for a change
 * request, `"purpose": "change_request"`).
 */
export function pushSigningPayload(
  body: object,
  address: PushAddress,
  purpose: SigningPurpose = 'push',
): string {
  const { client_sig: _ignored, purpose: _purpose, ...rest } = body as Record<string, unknown>;
  return (
    canonicalize({
      ...rest,
      organization: address.organization,
      project: address.project,
      environment: address.environment,
      ...(purpose === 'change_request' && { purpose }),
    }) ?? ''
  );
}

/**
 * Verifies a base64url Ed25519 `client_sig` over the push payload. Never throws. A weak stored key
 * (small order, mixed order, non-canonical) never verifies anything, whatever the signature.
 */
export function verifyClientSignature(
  publicKeyRaw: string,
  body: object,
  address: PushAddress,
  clientSig: string,
  purpose: SigningPurpose = 'push',
): boolean {
  try {
    if (!isAcceptedEd25519Key(publicKeyRaw)) return false;
    if (!/^[A-Za-z0-9_-]{86}$/.test(clientSig)) return false;
    const signature = Buffer.from(clientSig, 'base64url');
    if (signature.length !== 64) return false;
    return verifySignature(
      null,
      Buffer.from(pushSigningPayload(body, address, purpose)),
      ed25519KeyObject(publicKeyRaw),
      signature,
    );
  } catch {
    return false;
  }
}
