/**
 * A change request made from a signed push: the device, signature (its purpose `change_request`),
 * nonce and strict rules of a push, its values sealed at rest as a secret's, stored with its
 * `change_request_created` event in one unit of work.
 */
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { ChangeRequest } from '../model/change-request.js';
import { limitExceeded } from '../model/limits.js';
import type { Device } from '../model/model.js';
import type { ChangeRequestBodyInput } from '../schemas/change-requests.js';
import { pushMode, signedBy } from '../secrets/push-checks.js';
import { sealSecretValue } from '../secrets/values.js';
import { type ChangeScope, type ChangeServices, changeEvent } from './change-services.js';

/** The request as the route hands it over: the validated body, the JSON it was signed as. */
export interface ChangeRequestInput extends ChangeScope {
  body: ChangeRequestBodyInput;
  signed: Record<string, unknown>;
  /** The device the body names, when read with the request's records. */
  device?: Device | null | undefined;
}

/** Makes the request, or throws the refusal a push would get (and 400 without a policy). */
export async function createChangeRequest(
  services: ChangeServices,
  input: ChangeRequestInput,
): Promise<ChangeRequest> {
  const { body, environment, organization } = input;
  const policy = environment.approval_policy;
  if (!policy) {
    throw new LatchkeyError(
      'invalid_request',
      `${input.project.slug}/${environment.slug} has no approval policy: push the changes directly.`,
    );
  }
  const { device, address, nowMs, nonceExpiresAt } = await signedBy(services, input, 'change_request');
  // Applied strictly whatever the body says: every change names its if_version, nothing is forced.
  pushMode({ ...body, conflict_mode: 'strict' }, environment, input.principal, address);
  const request = requestRecord(services, input, policy.expires_after_hours, policy.required_approvals);
  await services.store.transaction(async (tx) => {
    if (!(await tx.nonces.consume(`${organization.id}/${device.id}`, body.nonce, nonceExpiresAt, nowMs))) {
      throw new LatchkeyError('push_replayed', 'This nonce was already used; sign again with a new nonce.');
    }
    const max = services.limits.openChangeRequestsPerEnvironment;
    if ((await tx.changeRequests.create(request, max)) === 'limit') {
      throw limitExceeded(
        `${environment.slug} has ${max} open change requests (limits.openChangeRequestsPerEnvironment).`,
      );
    }
    await tx.activity.append(
      organization.id,
      changeEvent(
        services,
        input,
        'change_request_created',
        {
          change_request: request.id,
          title: request.title,
          required_approvals: request.required_approvals,
          expires_at: request.expires_at,
          changes: request.changes.map(({ key, action, if_version }) => ({ key, action, if_version })),
        },
        device.id,
      ),
    );
  });
  return request;
}

/** The stored record: values sealed, bound to the environment and key as a secret's are. */
function requestRecord(
  services: ChangeServices,
  input: ChangeRequestInput,
  hours: number,
  required: number,
): ChangeRequest {
  const { body, environment } = input;
  return {
    id: services.ids('chr'),
    organization_id: input.organization.id,
    project_id: input.project.id,
    environment_id: environment.id,
    project: input.project.slug,
    environment: environment.slug,
    status: 'open',
    title: body.title,
    description: body.description ?? '',
    created_by: input.principal.user,
    device_id: body.device_id,
    created_at: input.at,
    expires_at: new Date(Date.parse(input.at) + hours * 3_600_000).toISOString(),
    required_approvals: required,
    changes: body.changes.map((c) => ({
      key: c.key,
      action: c.delete ? 'delete' : 'set',
      // pushMode has checked every change names one.
      if_version: c.if_version!,
      value:
        c.delete || c.value === undefined
          ? null
          : sealSecretValue(services.keyring, environment.id, c.key, c.value),
    })),
    approvals: [],
    rejection: null,
    applied: null,
    revision: 0,
  };
}
