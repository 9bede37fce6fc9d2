/**
 * The open change requests and the workload identities of a backup: their lines (a request's
 * values opened, as a secret line's are: the age file around the whole is what protects them), the
 * schemas restore reads them with, and the records restore writes, values sealed again with this
 * server's keyring for the environment they land in. Closed requests (applied, rejected,
 * cancelled, expired, conflicted) are history, which the events keep; tokens, exchanged `jti`s
 * and ephemeral devices live minutes and are never part of a backup.
 */
import { z } from 'zod';
import { toChangeRequestView } from '../changes/request-view.js';
import type { Keyring } from '../keyring/keyring.js';
import type { ChangeRequest, ChangeRequestChange } from '../model/change-request.js';
import type { WorkloadIdentity } from '../model/workload.js';
import { idSchema, SecretKeySchema, SlugSchema, UserSchema } from '../schemas/api.js';
import { ApproveBody, ChangeRequestBody } from '../schemas/change-requests.js';
import { text } from '../schemas/text.js';
import { CreateWorkloadIdentityBody } from '../schemas/workload.js';
import { sealSecretValue } from '../secrets/values.js';
import { toWorkloadIdentityView } from '../workload/identity-view.js';

const Time = z.iso.datetime({ offset: true });

/** One change of a request: a set with its value, or a delete without one. */
const ChangeLine = z
  .strictObject({
    key: SecretKeySchema,
    action: z.enum(['set', 'delete']),
    if_version: z.int().min(0).max(2_147_483_646),
    // As a push takes it (well-formed, no NUL): a value no signed push could carry is no request's.
    value: text().max(1_048_576).optional(),
  })
  .refine((c) => (c.action === 'set') === (c.value !== undefined), 'a set carries a value, a delete none');

/** An open (or approved, not yet applied) change request of an environment of the backup. */
export const ChangeRequestLine = z
  .strictObject({
    kind: z.literal('change_request'),
    id: idSchema('chr'),
    project: SlugSchema,
    environment: SlugSchema,
    status: z.enum(['open', 'approved']),
    title: ChangeRequestBody.shape.title,
    description: ChangeRequestBody.shape.description.unwrap(),
    created_by: UserSchema,
    device_id: idSchema('dev'),
    created_at: Time,
    expires_at: Time,
    required_approvals: z.int().min(1).max(10),
    changes: z.array(ChangeLine).min(1).max(1000),
    approvals: z
      .array(
        z.strictObject({
          user: UserSchema,
          approved_at: Time,
          comment: ApproveBody.shape.comment,
          device_id: idSchema('dev').optional(),
        }),
      )
      .max(100),
  })
  .refine((r) => new Set(r.changes.map((c) => c.key)).size === r.changes.length, 'a key changes twice')
  .refine((r) => new Set(r.approvals.map((a) => a.user)).size === r.approvals.length, 'a user approves twice')
  .refine(
    (r) => (r.status === 'approved') === r.approvals.length >= r.required_approvals,
    'approved exactly when it has its required approvals',
  );
export type ChangeRequestRecord = z.infer<typeof ChangeRequestLine>;

/** A workload identity: the create body's fields (held to its rules), its id and creation time. */
export const WorkloadIdentityLine = CreateWorkloadIdentityBody.extend({
  kind: z.literal('workload_identity'),
  id: idSchema('wid'),
  token_ttl_seconds: z.int().min(60).max(3600),
  created_at: Time,
});
export type WorkloadIdentityRecord = z.infer<typeof WorkloadIdentityLine>;

/**
 * The backup line of a stored request: its view with its values opened, as a member's line is its
 * view. A delete's line carries no value where the view shows `null`.
 */
export function changeRequestLine(request: ChangeRequest, keyring: Keyring | undefined) {
  const view = toChangeRequestView(request, { keyring });
  return {
    kind: 'change_request',
    ...view,
    changes: view.changes.map(({ value, ...change }) => (value === null ? change : { ...change, value })),
  };
}

/** The backup line of an identity: its view, which holds nothing secret. */
export const workloadIdentityLine = (identity: WorkloadIdentity) => ({
  kind: 'workload_identity',
  ...toWorkloadIdentityView(identity),
});

/** Where a restored request lands, and the ids restore gave the records it names. */
export interface RequestTarget {
  id: string;
  organizationId: string;
  projectId: string;
  environmentId: string;
  keyring: Keyring | undefined;
  /** The device id restore gave the backup's device of this id (itself when kept or unknown). */
  device: (id: string) => string;
  /** The id restore gave an identity, for a request a workload made (itself otherwise). */
  author: (user: string) => string;
}

/** The stored request of a backup line: its values sealed for the environment it lands in. */
export function restoredChangeRequest(record: ChangeRequestRecord, target: RequestTarget): ChangeRequest {
  const changes: ChangeRequestChange[] = record.changes.map((c) => ({
    key: c.key,
    action: c.action,
    if_version: c.if_version,
    value:
      c.value === undefined ? null : sealSecretValue(target.keyring, target.environmentId, c.key, c.value),
  }));
  return {
    id: target.id,
    organization_id: target.organizationId,
    project_id: target.projectId,
    environment_id: target.environmentId,
    project: record.project,
    environment: record.environment,
    status: record.status,
    title: record.title,
    description: record.description,
    created_by: target.author(record.created_by),
    device_id: target.device(record.device_id),
    created_at: record.created_at,
    expires_at: record.expires_at,
    required_approvals: record.required_approvals,
    changes,
    approvals: record.approvals.map(({ comment, device_id, ...approval }) => ({
      ...approval,
      ...(comment === undefined ? {} : { comment }),
      ...(device_id === undefined ? {} : { device_id: target.device(device_id) }),
    })),
    rejection: null,
    applied: null,
    revision: 0,
  };
}

/** The stored identity of a backup line. */
export function restoredWorkloadIdentity(
  record: WorkloadIdentityRecord,
  id: string,
  organizationId: string,
): WorkloadIdentity {
  return {
    id,
    organization_id: organizationId,
    name: record.name,
    issuer: record.issuer,
    audience: record.audience,
    subject: record.subject,
    claims: record.claims ?? {},
    grants: record.grants,
    actions: record.actions,
    token_ttl_seconds: record.token_ttl_seconds,
    created_at: record.created_at,
  };
}
