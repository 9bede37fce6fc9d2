/**
 * The checks of a signed push before anything is written, in the order they answer: the device
 * (enrolled, active, the caller's own, with a key still accepted), the signature (within the time
 * window, verifying over the body and its address) and the conflict mode the push may use.
 */
import { authorize, type Principal } from '../auth/permissions.js';
import { isAcceptedEd25519Key } from '../encoding/ed25519-key-check.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Device, Environment, Organization, Project } from '../model/model.js';
import type { PushMode } from '../model/push-event.js';
import type { PushBodyInput } from '../schemas/api.js';
import type { LatchkeyStore } from '../store/types.js';
import { type PushAddress, type SigningPurpose, verifyClientSignature } from './signatures.js';

/** What the device and signature checks read from a signed push or change request. */
export interface SignedInput {
  body: Pick<PushBodyInput, 'device_id' | 'signed_at' | 'client_sig'>;
  /** The body as parsed JSON, before validation: what `client_sig` covers. */
  signed: Record<string, unknown>;
  principal: Principal;
  organization: Organization;
  project: Project;
  environment: Environment;
  /** The device the body names, when read with the request's records. */
  device?: Device | null | undefined;
}

/** What the checks need from the core: the store, the clock and the signature window. */
export interface SigningServices {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  /** Accepted distance between `signed_at` and now, in seconds. */
  signatureToleranceSeconds: number;
}

/**
 * The device that signed `input`, once its signature verifies over the input's address for
 * `purpose` (else the 403 or 401 that says why), with the time it was checked at and when its
 * nonce may be forgotten: past the whole window in which `signed_at` is acceptable, so the nonce
 * can never be used twice.
 */
export async function signedBy(services: SigningServices, input: SignedInput, purpose: SigningPurpose) {
  const { body, organization } = input;
  const device = await pushingDevice(
    services.store,
    organization.id,
    body.device_id,
    input.principal,
    input.device,
    services.now(),
  );
  const nowMs = services.now();
  const tolerance = services.signatureToleranceSeconds;
  const address: PushAddress = {
    organization: organization.slug,
    project: input.project.slug,
    environment: input.environment.slug,
  };
  checkPushSignature(device.public_key, body, input.signed, address, nowMs, tolerance, purpose);
  return { device, address, nowMs, nonceExpiresAt: (body.signed_at + tolerance) * 1000 + 60_000 };
}

/** The device that signed the push, or the 403 that says why it may not push. */
export async function pushingDevice(
  store: LatchkeyStore,
  organizationId: string,
  deviceId: string,
  principal: Pick<Principal, 'user' | 'workload'>,
  prefetched: Device | null | undefined,
  nowMs: number,
): Promise<Device> {
  // Read with the request's records when the route could name it; else (or not found there) now.
  const device = prefetched?.id === deviceId ? prefetched : await store.devices.get(organizationId, deviceId);
  if (!device) throw new LatchkeyError('device_unknown', 'The device is not enrolled in this organization.');
  if (device.status === 'revoked') throw new LatchkeyError('device_revoked', 'The device has been revoked.');
  if (device.expires_at && Date.parse(device.expires_at) <= nowMs)
    throw new LatchkeyError('device_revoked', 'The device has expired.');
  if (device.user !== principal.user) {
    throw new LatchkeyError('device_not_owned', 'The device belongs to another member.');
  }
  // A workload pushes only with the device it was issued with, not another token's.
  if (principal.workload && device.id !== principal.workload.deviceId)
    throw new LatchkeyError(
      'device_not_owned',
      'A workload token signs only with the device issued with it.',
    );
  // A key enrolled before weak keys were refused: with it any signature could verify, so refuse it
  // before looking at the signature at all.
  if (!isAcceptedEd25519Key(device.public_key)) {
    throw new LatchkeyError(
      'device_key_invalid',
      'The device key is a weak Ed25519 key and is no longer accepted; enroll a new device with a new key pair.',
    );
  }
  return device;
}

/**
 * A 401 `invalid_client_signature` unless the body's `signed_at` is within `toleranceSeconds` of
 * `nowMs` and its `client_sig` verifies with the device key over `signed` (the body as sent, before
 * validation) and its address.
 */
function checkPushSignature(
  publicKey: string,
  body: Pick<PushBodyInput, 'signed_at' | 'client_sig'>,
  signed: Record<string, unknown>,
  address: PushAddress,
  nowMs: number,
  toleranceSeconds: number,
  purpose: SigningPurpose = 'push',
): void {
  // signed_at is whole seconds, so compare whole seconds: the window is then +-tolerance inclusive
  // whatever the server's sub-second clock reads.
  if (Math.abs(Math.floor(nowMs / 1000) - body.signed_at) > toleranceSeconds) {
    throw new LatchkeyError(
      'invalid_client_signature',
      `signed_at is more than ${toleranceSeconds} seconds away from the server time.`,
    );
  }
  if (!verifyClientSignature(publicKey, signed, address, body.client_sig, purpose)) {
    throw new LatchkeyError('invalid_client_signature', 'client_sig does not verify with the device key.');
  }
}

/** The push's conflict mode, once the environment, the changes and the caller's role allow it. */
export function pushMode(
  body: PushBodyInput,
  environment: Environment,
  principal: Principal,
  address: PushAddress,
): PushMode {
  const strict = body.conflict_mode === 'strict';
  if (principal.workload && !strict) {
    throw new LatchkeyError(
      'if_version_required',
      'A workload token pushes in conflict_mode "strict" only.',
      {
        extra: { keys: body.changes.filter((c) => c.if_version === undefined).map((c) => c.key) },
      },
    );
  }
  if (environment.require_strict_conflict_mode && !strict) {
    throw new LatchkeyError('invalid_request', 'This environment requires conflict_mode "strict".', {
      details: [{ path: 'body.conflict_mode', message: 'must be "strict" in this environment' }],
    });
  }
  const force = body.force_overwrite === true;
  if (strict && force) {
    throw new LatchkeyError('invalid_request', 'force_overwrite is refused in strict conflict mode.', {
      details: [{ path: 'body.force_overwrite', message: 'not allowed with conflict_mode "strict"' }],
    });
  }
  if (strict) {
    const missing = body.changes.filter((c) => c.if_version === undefined).map((c) => c.key);
    if (missing.length > 0) {
      throw new LatchkeyError('if_version_required', 'Strict mode requires if_version on every change.', {
        extra: { keys: missing },
      });
    }
  }
  if (force && !authorize(principal, 'secrets:force_overwrite', address).ok) {
    throw new LatchkeyError('forbidden', 'force_overwrite needs the secrets:force_overwrite permission.');
  }
  return { strict, force };
}
