/** Public views of stored records: what list and read responses show (never token hashes). */
import { MASKED_VALUE } from '../delivery/sending/custom-headers.js';
import type * as Model from '../model/model.js';

/**
 * A view of records of type `T` that shows `keys` and nothing else, in that order (the order the
 * JSON answer lists them), so a field added to a record never leaks into a response.
 */
const showing =
  <T>() =>
  <K extends keyof T>(...keys: K[]) =>
  (record: T): Pick<T, K> =>
    Object.fromEntries(keys.map((key) => [key, record[key]])) as Pick<T, K>;

/** An organization as responses show it. */
export const toOrganizationView = showing<Model.Organization>()('id', 'slug', 'name', 'created_at');

/** A project as responses show it. */
export const toProjectView = showing<Model.Project>()('id', 'slug', 'name', 'created_at');

/** An environment as responses show it, with its project named by slug. */
export const toEnvironmentView = (e: Model.Environment, project: string) => ({
  id: e.id,
  project,
  slug: e.slug,
  require_strict_conflict_mode: e.require_strict_conflict_mode,
  approval_policy: e.approval_policy ?? null,
  created_at: e.created_at,
});

/** A member: user, role and grants. */
export const toMemberView = showing<Model.Member>()('user', 'role', 'grants', 'created_at');

/** An API token without its hash: the value is shown once, at creation, and never again. */
export const toTokenView = showing<Model.ApiToken>()('id', 'user', 'name', 'created_at', 'revoked_at');

/** An enrolled device with its public key. */
export const toDeviceView = showing<Model.Device>()(
  'id',
  'user',
  'name',
  'public_key',
  'status',
  'created_at',
  'revoked_at',
);

/**
 * A device as lists show it: a workload's ephemeral device carries its `expires_at`, and shows as
 * `expired` once that has passed (it signs nothing from then on).
 */
export const toListedDeviceView = (device: Model.Device, nowMs: number) => {
  const view = toDeviceView(device);
  if (!device.expires_at) return view;
  const expired = device.status === 'active' && Date.parse(device.expires_at) <= nowMs;
  return { ...view, status: expired ? ('expired' as const) : view.status, expires_at: device.expires_at };
};

/** An audit webhook's custom headers as answers show them: the names, every value masked. */
const toHeadersView = (w: Pick<Model.AuditWebhook, 'headers'>): Record<string, string> =>
  Object.fromEntries((w.headers ?? []).map((h) => [h.name, MASKED_VALUE]));

/** An audit webhook's client certificate as answers show it: what identifies it, never the key. */
const toClientCertificateView = (w: Pick<Model.AuditWebhook, 'client_certificate'>) =>
  w.client_certificate
    ? showing<Model.WebhookClientCertificate>()(
        'subject',
        'issuer',
        'fingerprint_sha256',
        'not_before',
        'not_after',
      )(w.client_certificate)
    : null;

/**
 * An audit webhook with its delivery health, never its sealed signing secret: its custom headers
 * by name (values masked) and its client certificate without the key.
 */
export const toAuditWebhookView = (w: Model.AuditWebhook) => ({
  id: w.id,
  name: w.name,
  url: w.url,
  status: w.status,
  event_types: w.event_types,
  headers: toHeadersView(w),
  client_certificate: toClientCertificateView(w),
  signature_scheme: w.signature_scheme ?? 'latchkey',
  consecutive_failures: w.consecutive_failures,
  last_delivery: w.last_delivery,
  last_error: w.last_error,
  created_at: w.created_at,
});

/** A delivery attempt of the attempt log; `test` marks those sent by the test operation. */
export const toAttemptView = (a: Model.DeliveryAttempt) => ({
  id: a.id,
  event_id: a.event_id,
  event_type: a.event_type,
  attempt: a.attempt,
  at: a.at,
  succeeded: a.succeeded,
  status_code: a.status_code,
  latency_ms: a.latency_ms,
  error: a.error,
  next_attempt_at: a.next_attempt_at,
  test: a.delivery_id === null,
});
