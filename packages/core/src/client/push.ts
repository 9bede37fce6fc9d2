/**
 * Client-side helpers for pushes: key pairs for devices and `client_sig`. A CLI or an SDK signs a push
 * with these; the server verifies the same bytes.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type PushAddress, pushSigningPayload, type SigningPurpose } from '../secrets/signatures.js';

/** A device key pair: the public key in raw base64url (to enroll) and the private KeyObject. */
export interface DeviceKeyPair {
  publicKey: string;
  privateKey: KeyObject;
}

/** Generates an Ed25519 device key pair. */
export function generateDeviceKeyPair(): DeviceKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicKey: der.subarray(der.length - 32).toString('base64url'), privateKey };
}

/** A push body before signing. `signed_at` and `nonce` are filled in when absent. */
export interface UnsignedPush {
  device_id: string;
  changes: { key: string; value?: string; delete?: true; if_version?: number }[];
  conflict_mode?: 'lenient' | 'strict';
  force_overwrite?: boolean;
  /** Under an approval policy, a role in its `bypass_roles` pushes past it with a reason. */
  bypass_reason?: string;
  signed_at?: number;
  nonce?: string;
}

/** A body as it is sent: its fields, with the `signed_at`, `nonce` and `client_sig` that sign them. */
export type Signed<T> = T & { signed_at: number; nonce: string; client_sig: string };

/**
 * Signs a body of one purpose (a push's fields, and the others it has) for `address` with the
 * device's private key, filling in `signed_at` (from `now`, default the clock) and `nonce` when
 * absent: the body to send.
 */
export type BodySigner<T extends UnsignedPush> = (
  body: T,
  address: PushAddress,
  privateKey: KeyObject,
  now?: () => number,
) => Signed<T>;

/** The signer of bodies signed for `purpose`: the signature covers the purpose, so one is never taken for another. */
export function signerFor<T extends UnsignedPush>(purpose: SigningPurpose): BodySigner<T> {
  return (body, address, privateKey, now = Date.now) => signBody(body, address, privateKey, now, purpose);
}

/** Signs a push for `address` with the device's private key and returns the body to send. */
export const signPush: BodySigner<UnsignedPush> = signerFor('push');

/** Signs `body` for `address` and `purpose`, filling in `signed_at` and `nonce` when absent. */
function signBody<T extends UnsignedPush>(
  body: T,
  address: PushAddress,
  privateKey: KeyObject,
  now: () => number,
  purpose: SigningPurpose,
): Signed<T> {
  const filled = {
    ...body,
    signed_at: body.signed_at ?? Math.floor(now() / 1000),
    nonce: body.nonce ?? randomBytes(16).toString('base64url'),
  };
  const payload = pushSigningPayload(filled, address, purpose);
  return { ...filled, client_sig: sign(null, Buffer.from(payload), privateKey).toString('base64url') };
}
