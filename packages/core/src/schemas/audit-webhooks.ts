/** The schemas of audit webhooks: management, the attempt log, tests and delivery metrics. */
import { z } from 'zod';
import { unknownEventTypes } from '../delivery/unknown-event-types.js';
import { LATENCY_BUCKET_KEYS } from '../model/rollup.js';
import { listOf, pageCursor, pageLimit, pageOf } from './list.js';
import { SignatureSchemeSchema } from './signature-schemes.js';
import { Rfc3339, text } from './text.js';
import {
  ClientCertificateBody,
  ClientCertificateView,
  HeadersBody,
  HeadersPatch,
  HeadersView,
} from './webhook-credentials.js';

export const AuditWebhookStatusSchema = z.enum(['active', 'disabled', 'dead_letter']);

/** `last_error`: why the latest failed attempt failed. */
export const DeliveryErrorSchema = z.strictObject({
  at: z.string(),
  code: z.enum(['timeout', 'connection_error', 'tls_error', 'http_status', 'blocked_target']),
  status_code: z.int().optional().describe('with http_status: what the receiver answered'),
  message: z.string(),
});

/** `last_delivery`: the latest attempt, successful or not. */
export const LastDeliverySchema = z.strictObject({
  at: z.string(),
  event_id: z.string(),
  succeeded: z.boolean(),
  status_code: z.int().nullable(),
  latency_ms: z.int(),
});

/** One entry of a filter as written: an event type name, or a prefix ending in `*`. */
export const EventTypePattern = text().regex(
  /^(?:[a-z][a-z0-9_]{0,63}\*?|\*)$/,
  'an event type name (snake_case) or a prefix of one ending in *',
);

/** A filter as stored and backed up: its entries, whatever this server's catalog holds. */
export const EventTypesList = z.array(EventTypePattern).max(200);

/** A filter as the API takes it: every entry names a catalogued type or prefixes one. */
export const EventTypesFilterBody = EventTypesList.superRefine((filter, ctx) => {
  const unknown = unknownEventTypes(filter);
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown event types: ${unknown.join(', ')} (GET /event-types lists them)`,
    });
  }
}).describe(
  'event types this webhook receives: names, or prefixes ending in * (push_*); absent or empty: every event. Unknown names are a 400 naming them.',
);

const WebhookName = text()
  .trim()
  .min(1)
  .max(100)
  .refine((name) => !/\p{Cc}/u.test(name), 'must not contain control characters');

const WebhookUrl = text().max(2_048).describe('https:// URL of the receiver; must reach a public address');

export const CreateAuditWebhookBody = z.strictObject({
  name: WebhookName,
  url: WebhookUrl,
  event_types: EventTypesFilterBody.optional(),
  headers: HeadersBody.optional(),
  client_certificate: ClientCertificateBody.optional(),
  signature_scheme: SignatureSchemeSchema.optional(),
  replay_since: Rfc3339.optional().describe(
    'back-fill: queue every earlier event of the organization that occurred at or after this time and matches the filter, in seq order, before any later event',
  ),
});

export const UpdateAuditWebhookBody = z
  .strictObject({
    name: WebhookName.optional(),
    url: WebhookUrl.optional(),
    event_types: EventTypesFilterBody.optional(),
    headers: HeadersPatch.optional(),
    client_certificate: ClientCertificateBody.nullable().optional(),
    signature_scheme: SignatureSchemeSchema.optional().describe(
      'moving into latchkey or standard-webhooks issues a new signing secret, in this answer only',
    ),
  })
  .refine(
    (body) => Object.keys(body).length > 0,
    'give at least one of name, url, event_types, headers, client_certificate, signature_scheme',
  );

export const RecoverBody = z
  .strictObject({
    since: Rfc3339.describe('replay every event that occurred at or after this time'),
    until: Rfc3339.optional().describe('and before this time (exclusive); absent: up to now'),
  })
  .refine((body) => body.until === undefined || Date.parse(body.until) >= Date.parse(body.since), {
    path: ['until'],
    message: 'must not be before since',
  });

export const AuditWebhookResponse = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  status: AuditWebhookStatusSchema,
  event_types: z.array(z.string()).describe('the filter: names and prefixes ending in *; empty: every event'),
  headers: HeadersView,
  client_certificate: ClientCertificateView,
  signature_scheme: SignatureSchemeSchema,
  consecutive_failures: z.int(),
  last_delivery: LastDeliverySchema.nullable(),
  last_error: DeliveryErrorSchema.nullable(),
  created_at: z.string(),
});

export const AuditWebhookWithSecretResponse = AuditWebhookResponse.extend({
  signing_secret: z
    .string()
    .optional()
    .describe(
      'whsec_…: shown in this response only; latchkey: the HMAC key is the whole string; standard-webhooks: standard base64 after whsec_. Absent for standard-webhooks-ed25519',
    ),
  public_keys: z
    .array(z.string())
    .optional()
    .describe('standard-webhooks-ed25519: the whpk_ public keys that sign now'),
});

export const AuditWebhookListResponse = listOf('audit_webhooks', AuditWebhookResponse);

export const DeliveryAttemptSchema = z.strictObject({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.int().describe('1 for the first attempt of a delivery'),
  at: z.string(),
  succeeded: z.boolean(),
  status_code: z.int().nullable(),
  latency_ms: z.int(),
  error: DeliveryErrorSchema.nullable(),
  next_attempt_at: z.string().nullable().describe('when a retry was scheduled'),
  test: z.boolean().describe('sent by the test operation'),
});

export const DeliveriesQuery = z.strictObject({
  limit: pageLimit(100),
  cursor: pageCursor(/^att_[A-Za-z0-9]{8,64}$/),
});

export const DeliveriesResponse = pageOf('attempts', DeliveryAttemptSchema);

export const RecoverResponse = z.strictObject({
  queued: z.int().describe('deliveries queued (held while the webhook is dead-lettered)'),
});

export const TestResponse = z.strictObject({
  delivered: z.boolean(),
  status_code: z.int().nullable(),
  latency_ms: z.int(),
  error: DeliveryErrorSchema.nullable(),
});

const MetricsWindowSchema = z.enum(['24h', '7d', '30d']);

export const MetricsQuery = z.strictObject({
  window: MetricsWindowSchema.optional().describe('default 24h'),
});

/** The counts of a window or an interval, in the order every metrics payload lists them. */
const Counts = { attempted: z.int(), succeeded: z.int(), failed: z.int() };
const Latency = z.strictObject({ p50_ms: z.int(), p95_ms: z.int(), p99_ms: z.int() });
const LatencyBuckets = z.strictObject(
  Object.fromEntries(LATENCY_BUCKET_KEYS.map((key) => [key, z.int()])) as Record<
    (typeof LATENCY_BUCKET_KEYS)[number],
    z.ZodInt
  >,
);

export const MetricsResponse = z.strictObject({
  window: MetricsWindowSchema,
  summary: z.strictObject({
    ...Counts,
    success_rate: z.number().describe('percent, two decimals; 0 when nothing was attempted'),
    dead_lettered_webhooks: z.int(),
    latency: Latency,
  }),
  webhooks: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      status: AuditWebhookStatusSchema,
      ...Counts,
      success_rate: z.number(),
      latency: Latency,
      latency_buckets: LatencyBuckets,
      last_error: DeliveryErrorSchema.nullable(),
    }),
  ),
});

export const MetricsTimelineResponse = z.strictObject({
  window: MetricsWindowSchema,
  step_seconds: z.int().describe('the length of a whole interval: 3600 (24h), 21600 (7d), 86400 (30d)'),
  buckets: z
    .array(
      z.strictObject({
        from: z.string().describe('start of the interval (inclusive), RFC 3339 UTC'),
        to: z.string().describe('end of the interval (exclusive)'),
        ...Counts,
        latency: Latency,
      }),
    )
    .describe(
      'oldest first; intervals on UTC boundaries, the first from the window start, the last to the end of the current minute; their counts add up to the summary of GET …/metrics',
    ),
});

export const EventTypesResponse = z.strictObject({
  event_types: z.array(
    z.strictObject({
      type: z.string(),
      group: z.string().describe('the resource the type belongs to, for grouping'),
      description: z.string(),
      data_schema: z.record(z.string(), z.unknown()).describe('JSON Schema (2020-12) of the event data'),
    }),
  ),
});
