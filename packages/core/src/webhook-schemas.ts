/** The schemas of audit webhooks: management, the attempt log, tests and metrics (source section 2). */
import { z } from 'zod';
import { text, wellFormed } from './text.js';
import { LATENCY_BUCKET_KEYS } from './webhooks/metrics-rollup.js';

const Rfc3339 = z.iso.datetime({ offset: true }).check(wellFormed);

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

export const CreateAuditWebhookBody = z.strictObject({
  name: text()
    .trim()
    .min(1)
    .max(100)
    .refine((name) => !/\p{Cc}/u.test(name), 'must not contain control characters'),
  url: text().max(2_048).describe('https:// URL of the receiver; must reach a public address'),
});

export const RecoverBody = z.strictObject({
  since: Rfc3339.describe('replay every event that occurred at or after this time'),
});

export const AuditWebhookResponse = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  status: AuditWebhookStatusSchema,
  consecutive_failures: z.int(),
  last_delivery: LastDeliverySchema.nullable(),
  last_error: DeliveryErrorSchema.nullable(),
  created_at: z.string(),
});

export const AuditWebhookWithSecretResponse = AuditWebhookResponse.extend({
  signing_secret: z
    .string()
    .describe('whsec_…: shown in this response only; the HMAC key is the whole string'),
});

export const AuditWebhookListResponse = z.strictObject({ audit_webhooks: z.array(AuditWebhookResponse) });

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
  limit: text()
    .regex(/^[0-9]{1,3}$/, 'an integer from 1 to 100')
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional(),
  cursor: text()
    .regex(/^att_[A-Za-z0-9]{8,64}$/, 'a next_cursor of an earlier page')
    .optional(),
});

export const DeliveriesResponse = z.strictObject({
  attempts: z.array(DeliveryAttemptSchema),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next (older) page; null at the end'),
});

export const RecoverResponse = z.strictObject({
  queued: z.int().describe('deliveries queued (held while the webhook is dead-lettered)'),
});

export const TestResponse = z.strictObject({
  delivered: z.boolean(),
  status_code: z.int().nullable(),
  latency_ms: z.int(),
  error: DeliveryErrorSchema.nullable(),
});

export const MetricsQuery = z.strictObject({
  window: z.enum(['24h', '7d', '30d']).optional().describe('default 24h'),
});

const Latency = z.strictObject({ p50_ms: z.int(), p95_ms: z.int(), p99_ms: z.int() });
const LatencyBuckets = z.strictObject(
  Object.fromEntries(LATENCY_BUCKET_KEYS.map((key) => [key, z.int()])) as Record<
    (typeof LATENCY_BUCKET_KEYS)[number],
    z.ZodInt
  >,
);

export const MetricsResponse = z.strictObject({
  window: z.enum(['24h', '7d', '30d']),
  summary: z.strictObject({
    attempted: z.int(),
    succeeded: z.int(),
    failed: z.int(),
    success_rate: z.number().describe('percent, two decimals; 0 when nothing was attempted'),
    dead_lettered_webhooks: z.int(),
    latency: Latency,
  }),
  webhooks: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      status: AuditWebhookStatusSchema,
      attempted: z.int(),
      succeeded: z.int(),
      failed: z.int(),
      success_rate: z.number(),
      latency: Latency,
      latency_buckets: LatencyBuckets,
      last_error: DeliveryErrorSchema.nullable(),
    }),
  ),
});

export const MetricsTimelineResponse = z.strictObject({
  window: z.enum(['24h', '7d', '30d']),
  step_seconds: z.int().describe('the length of a whole interval: 3600 (24h), 21600 (7d), 86400 (30d)'),
  buckets: z
    .array(
      z.strictObject({
        from: z.string().describe('start of the interval (inclusive), RFC 3339 UTC'),
        to: z.string().describe('end of the interval (exclusive)'),
        attempted: z.int(),
        succeeded: z.int(),
        failed: z.int(),
        latency: Latency,
      }),
    )
    .describe(
      'oldest first; intervals on UTC boundaries, the first from the window start, the last to the end of the current minute; their counts add up to the summary of GET …/metrics',
    ),
});
