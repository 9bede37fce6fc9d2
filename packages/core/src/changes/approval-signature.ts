/**
 * A device-signed approval, under `require_signed_approvals`: Ed25519 over the JCS of
 * `{change_request, digest, signed_at}`, the digest binding the request's address and its changes
 * with their values, so a signature approves exactly what the approver saw.
 */
import { verify } from 'node:crypto';
import { approvalSigningPayload, changeRequestDigest } from '../client/change-request-signing.js';
import { ed25519KeyObject } from '../encoding/ed25519-public-key.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ChangeRequest } from '../model/change-request.js';
import type { ApproveBodyInput } from '../schemas/change-requests.js';
import { pushingDevice } from '../secrets/push-checks.js';
import { addressOf, type ChangeScope, type ChangeServices } from './change-services.js';
import { openedValue } from './request-view.js';

/** The approving device's id once the approval's signature verifies; the refusal otherwise. */
export async function checkSignedApproval(
  services: ChangeServices,
  scope: ChangeScope,
  request: ChangeRequest,
  body: ApproveBodyInput,
): Promise<string> {
  const { device_id, signed_at, signature } = body;
  if (device_id === undefined || signed_at === undefined || signature === undefined) {
    throw new LatchkeyError('invalid_request', 'This environment requires signed approvals.', {
      details: [{ path: 'body.signature', message: 'give device_id, signed_at and signature' }],
    });
  }
  const device = await pushingDevice(
    services.store,
    scope.organization.id,
    device_id,
    scope.principal,
    undefined,
    services.now(),
  );
  const tolerance = services.signatureToleranceSeconds;
  if (Math.abs(Math.floor(services.now() / 1000) - signed_at) > tolerance) {
    throw new LatchkeyError(
      'invalid_client_signature',
      `signed_at is more than ${tolerance} seconds away from the server time.`,
    );
  }
  const digest = changeRequestDigest(
    addressOf(scope),
    request.changes.map((c) => ({ ...c, value: openedValue(request, c.key, c.value, services.keyring) })),
  );
  if (!verifies(device.public_key, approvalSigningPayload(request.id, digest, signed_at), signature)) {
    throw new LatchkeyError(
      'invalid_client_signature',
      'The approval signature does not verify with the device key.',
    );
  }
  return device.id;
}

function verifies(publicKey: string, payload: string, signature: string): boolean {
  try {
    if (!/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
    return verify(
      null,
      Buffer.from(payload),
      ed25519KeyObject(publicKey),
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}
