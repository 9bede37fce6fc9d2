/** A change request as answers show it: never a value unless asked for, and then opened here. */

import type { Keyring } from '../keyring/keyring.js';
import type { ChangeRequest } from '../model/change-request.js';
import { openSecretValue } from '../secrets/values.js';

/** The request's public fields, in the contract's order; `values` adds each change's value. */
export function toChangeRequestView(request: ChangeRequest, values?: { keyring: Keyring | undefined }) {
  return {
    id: request.id,
    status: request.status,
    title: request.title,
    description: request.description,
    project: request.project,
    environment: request.environment,
    created_by: request.created_by,
    device_id: request.device_id,
    created_at: request.created_at,
    expires_at: request.expires_at,
    required_approvals: request.required_approvals,
    changes: request.changes.map((c) => ({
      key: c.key,
      action: c.action,
      if_version: c.if_version,
      ...(values && { value: openedValue(request, c.key, c.value, values.keyring) }),
    })),
    approvals: request.approvals.map((a) => ({ ...a })),
    ...(request.rejection && { rejection: request.rejection }),
    ...(request.applied && { applied: request.applied }),
  };
}

/** A change's value in the clear (null for a delete). */
export function openedValue(
  request: Pick<ChangeRequest, 'environment_id'>,
  key: string,
  stored: string | null,
  keyring: Keyring | undefined,
): string | null {
  return stored === null ? null : openSecretValue(keyring, request.environment_id, key, stored);
}
