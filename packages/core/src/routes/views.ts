/** Public views of stored records: what list and read responses show (never token hashes). */
import type {
  ApiToken,
  AuditWebhook,
  DeliveryAttempt,
  Device,
  Environment,
  Member,
  Organization,
  Project,
} from '../model.js';

export const toOrganizationView = (o: Organization) => ({
  id: o.id,
  slug: o.slug,
  name: o.name,
  created_at: o.created_at,
});

export const toProjectView = (p: Project) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  created_at: p.created_at,
});

export const toEnvironmentView = (e: Environment, project: string) => ({
  id: e.id,
  project,
  slug: e.slug,
  require_strict_conflict_mode: e.require_strict_conflict_mode,
  created_at: e.created_at,
});

export const toMemberView = (m: Member) => ({
  user: m.user,
  role: m.role,
  grants: m.grants,
  created_at: m.created_at,
});

export const toTokenView = (t: ApiToken) => ({
  id: t.id,
  user: t.user,
  name: t.name,
  created_at: t.created_at,
  revoked_at: t.revoked_at,
});

export const toDeviceView = (d: Device) => ({
  id: d.id,
  user: d.user,
  name: d.name,
  public_key: d.public_key,
  status: d.status,
  created_at: d.created_at,
  revoked_at: d.revoked_at,
});

export const toAuditWebhookView = (w: AuditWebhook) => ({
  id: w.id,
  name: w.name,
  url: w.url,
  status: w.status,
  consecutive_failures: w.consecutive_failures,
  last_delivery: w.last_delivery,
  last_error: w.last_error,
  created_at: w.created_at,
});

export const toAttemptView = (a: DeliveryAttempt) => ({
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
