/**
 * The shapes of the API answers the dashboard reads, inferred from the schemas the server documents
 * its responses with, so they cannot drift from what it sends. Type-only: nothing of core reaches
 * the browser bundle.
 */
import type { schemas } from '@latchkey/core';

/** `GET /me`: who is signed in. */
export type Me = schemas.Infer<typeof schemas.MeResponse>;

/** One audit webhook, as listed and as each action answers. */
export type AuditWebhook = schemas.Infer<typeof schemas.AuditWebhookResponse>;
/** The organization's webhook signing keys (public). */
export type SigningKeys = schemas.Infer<typeof schemas.SigningKeysResponse>;
/** A webhook's signature scheme. */
export type SignatureScheme = AuditWebhook['signature_scheme'];

/** The answer of create and rotate-secret: the webhook with its signing secret, shown once. */
export type AuditWebhookWithSecret = schemas.Infer<typeof schemas.AuditWebhookWithSecretResponse>;

/** `GET …/audit-webhooks`. */
export type AuditWebhookList = schemas.Infer<typeof schemas.AuditWebhookListResponse>;

/** A webhook's delivery state. */
export type WebhookStatus = AuditWebhook['status'];

/** `GET …/audit-webhooks/metrics`. */
export type Metrics = schemas.Infer<typeof schemas.MetricsResponse>;

/** The window the metrics are read over. */
export type MetricsWindow = Metrics['window'];

/** One webhook's figures over the metrics window. */
export type WebhookFigures = Metrics['webhooks'][number];

/** `GET …/audit-webhooks/metrics/timeline`. */
export type Timeline = schemas.Infer<typeof schemas.MetricsTimelineResponse>;

/** One interval of the timeline. */
export type TimelineBucket = Timeline['buckets'][number];

/** `GET …/deliveries`: a page of the attempt log. */
export type DeliveriesPage = schemas.Infer<typeof schemas.DeliveriesResponse>;

/** One delivery attempt of the log. */
export type Attempt = DeliveriesPage['attempts'][number];

/** `POST …/test`. */
export type TestResult = schemas.Infer<typeof schemas.TestResponse>;

/** `GET /event-types`: the catalog a webhook's filter names. */
export type EventTypeList = schemas.Infer<typeof schemas.EventTypesResponse>;

/** One event type of the catalog. */
export type EventTypeEntry = EventTypeList['event_types'][number];

/** One activity event, as history and export show it. */
export type ActivityEvent = schemas.Infer<typeof schemas.ActivityEventSchema>;

/** `GET …/history`: a page of events, newest first. */
export type HistoryPage = schemas.Infer<typeof schemas.HistoryResponse>;

/** `GET …/activity/checkpoint`: the signed chain head. */
export type SignedCheckpoint = schemas.Infer<typeof schemas.CheckpointResponse>;

/** `GET …/projects`. */
export type ProjectList = { projects: schemas.Infer<typeof schemas.ProjectResponse>[] };

/** `GET …/projects/{project}/environments`. */
export type EnvironmentList = { environments: schemas.Infer<typeof schemas.EnvironmentResponse>[] };

/** `GET /portal-session`: the embedded page's own session (its capabilities, origin and expiry). */
export interface PortalSession {
  session_id: string;
  organization: { id: string; slug: string; name: string };
  user: string;
  capabilities: string[];
  read_only: boolean;
  origin: string;
  expires_at: string;
}
