/** Event types of audit webhooks: their management, recovery, tests and dead letters. */
import { z } from 'zod';
import { Count, EventTypesFilter, entry, Time, WebhookFields } from './shared.js';

const Webhook = z.strictObject(WebhookFields);

/** Custom header names (never their values): only when the webhook has some, or they changed. */
const HeaderNames = z
  .array(z.string())
  .max(10)
  .optional()
  .describe('the custom headers by name (their values are never recorded)');
/** The client certificate by fingerprint (never the key): only when it has one, or it changed. */
const CertificateFingerprint = z
  .strictObject({ fingerprint_sha256: z.string() })
  .nullable()
  .optional()
  .describe('the mTLS client certificate by fingerprint (the key is never recorded)');

const LastError = z.strictObject({
  at: Time,
  code: z.enum(['timeout', 'connection_error', 'tls_error', 'http_status', 'blocked_target']),
  status_code: z.int().optional(),
  message: z.string(),
});

export const webhookEventTypes = {
  audit_webhook_created: entry(
    'An audit webhook was created, with its filter and any back-fill from the log (replay_since)',
    z.strictObject({
      ...WebhookFields,
      event_types: EventTypesFilter,
      headers: HeaderNames,
      client_certificate: CertificateFingerprint,
      signature_scheme: z
        .enum(['latchkey', 'standard-webhooks', 'standard-webhooks-ed25519'])
        .optional()
        .describe('absent: latchkey'),
      replay_since: Time.optional().describe('with replay_since: the time the back-fill started from'),
      replayed: Count.optional().describe('with replay_since: the deliveries the back-fill queued'),
    }),
  ),
  audit_webhook_updated: entry(
    "An audit webhook's name, URL, event-type filter, custom headers or client certificate was changed (the URL is named by its host only, headers by name, the certificate by fingerprint)",
    z.strictObject({
      ...WebhookFields,
      event_types: EventTypesFilter,
      headers: HeaderNames,
      client_certificate: CertificateFingerprint,
      changed: z.array(
        z.enum(['name', 'url', 'event_types', 'headers', 'client_certificate', 'signature_scheme']),
      ),
      from: z
        .strictObject({
          name: z.string().optional(),
          signature_scheme: z.string().optional(),
          host: z.string().optional(),
          event_types: EventTypesFilter.optional(),
          headers: HeaderNames,
          client_certificate: CertificateFingerprint,
        })
        .describe('the changed fields as they were'),
    }),
  ),
  audit_webhook_secret_rotated: entry(
    "An audit webhook's signing secret was replaced (never the secret)",
    Webhook,
  ),
  audit_webhook_disabled: entry('An audit webhook was disabled; what it was owed was dropped', Webhook),
  audit_webhook_enabled: entry(
    'An audit webhook was enabled; the deliveries held while it was dead-lettered were released',
    z.strictObject({
      ...WebhookFields,
      from: z.enum(['active', 'disabled', 'dead_letter']),
      released: Count,
    }),
  ),
  audit_webhook_recovered: entry(
    'Events of a time range were queued again for an audit webhook, by its current filter',
    z.strictObject({
      ...WebhookFields,
      since: Time,
      until: Time.optional().describe('exclusive; absent: up to the request'),
      event_types: EventTypesFilter.describe('the filter the replay honoured'),
      queued: Count,
    }),
  ),
  audit_webhook_dead_lettered: entry(
    'A delivery exhausted its retries (or got 410): the webhook moved to dead_letter',
    z.strictObject({
      ...WebhookFields,
      event_id: z.string(),
      attempts: z.int().min(1),
      reason: z.enum(['gone', 'retries_exhausted']),
      last_error: LastError.nullable(),
    }),
  ),
  audit_webhook_signing_key_rotated: entry(
    "The organization's webhook signing key was rotated: the new key signs at once, the old one beside it until retires_at",
    z.strictObject({
      key_id: z.string(),
      public_key: z.string().describe('whpk_…: public, safe to record'),
      retired_key_id: z.string().nullable(),
      retires_at: Time.nullable(),
    }),
  ),
  webhook_test: entry('A test event sent to one webhook at once (never queued to others)', Webhook),
};
