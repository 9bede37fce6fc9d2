/**
 * One delivery attempt, from a claimed delivery to its record: open the webhook's secret or keys, sign the
 * event afresh with the time of this attempt, send it, and decide what follows (delivered, retry at
 * a jittered time or the receiver's `Retry-After`, or dead letter after the schedule or on 410).
 * The record and, for a dead letter, the `audit_webhook_dead_lettered` event are written in one
 * transaction (`record-outcome.ts`); nothing is written when the lease was lost meanwhile.
 */

import { type Keyring, missingKeyId } from '../keyring/keyring.js';
import { recordedLatency } from '../metrics/rollup.js';
import type { DeliveryAttempt } from '../model/model.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { AttemptRecord, ClaimedDelivery } from '../store/ports/deliveries.js';
import type { LatchkeyStore } from '../store/ports/store.js';
import { traceSpan } from '../telemetry/tracing.js';
import { type DeliveredTreeCache, withDeliveredTree } from './delivered-tree.js';
import { type OpenedCredentials, openCredentials } from './open-credentials.js';
import type { DecidedAttempt } from './record-outcome.js';
import { nextRetry, type RetryPolicy } from './retry-schedule.js';
import type { SendResult, Transport } from './sending/sender.js';
import { type SigningMaterial, signForScheme } from './signature-schemes/index.js';
import { type SecretCache, signingMaterial } from './signing-material.js';

export type { SecretCache } from './signing-material.js';

/** What an attempt needs around it. */
export interface AttemptServices {
  store: LatchkeyStore;
  keyring: Keyring;
  transport: Transport;
  retry: RetryPolicy;
  timeoutMs: number;
  now(): number;
  random(): number;
  ids: IdGenerator;
  /** Opened signing secrets, kept between attempts (the engine's own; absent: opened every time). */
  secrets?: SecretCache;
  /** Delivered `tree` fields, kept between attempts (the engine's own; absent: read every time). */
  trees?: DeliveredTreeCache;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Signs and sends an event to a webhook (also what `test` does). A signing secret sealed with a key
 * this keyring lacks (another instance's rotation) throws its `MissingKeyError`: nothing is sent,
 * and the delivery waits for an engine that has the key rather than fail towards a dead letter.
 */
export async function sendSigned(
  services: Pick<AttemptServices, 'keyring' | 'transport' | 'timeoutMs' | 'now' | 'secrets'> &
    Partial<Pick<AttemptServices, 'store'>>,
  webhook: ClaimedDelivery['webhook'],
  event: { id: string; json: string; traceparent?: string | null | undefined },
): Promise<SendResult> {
  let material: SigningMaterial;
  let credentials: OpenedCredentials;
  try {
    material = await signingMaterial(services, webhook);
    credentials = openCredentials(services.keyring, webhook, services.secrets);
  } catch (error) {
    if (missingKeyId(error) !== null) throw error;
    return {
      ok: false,
      statusCode: null,
      latencyMs: 0,
      error: {
        code: 'connection_error',
        message:
          'a sealed value of the webhook (signing secret or key, header or client key) cannot be opened with the configured keyring',
      },
      retryAfterSeconds: null,
    };
  }
  const signed = signForScheme(material, event.json, event.id, Math.floor(services.now() / 1000));
  // The request that caused the event, for the receiver's traces (not signed: it says nothing of the event).
  const headers = event.traceparent ? { ...signed.headers, traceparent: event.traceparent } : signed.headers;
  return services.transport.send({
    url: webhook.url,
    body: signed.body,
    headers: withCustomHeaders(credentials.headers, headers),
    timeoutMs: services.timeoutMs,
    clientCertificate: credentials.clientCertificate,
  });
}

/**
 * The scheme's headers with the webhook's custom ones. Their names never clash with ours (refused at
 * create, ignoring case), and should one ever do, ours win: a custom header that names any of the
 * scheme's signature headers, in any case, is left out rather than sent beside it.
 */
function withCustomHeaders(
  custom: Readonly<Record<string, string>>,
  signed: Readonly<Record<string, string>>,
): Record<string, string> {
  // Nothing to add: the scheme's headers are this attempt's own object already.
  if (Object.keys(custom).length === 0) return signed as Record<string, string>;
  const ours = new Set(Object.keys(signed).map((name) => name.toLowerCase()));
  const kept = Object.entries(custom).filter(([name]) => !ours.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...signed };
}

/** The attempt row for a send result. */
export function attemptRow(
  ids: IdGenerator,
  claimed: ClaimedDelivery,
  startedAt: number,
  result: SendResult,
  nextAttemptAt: string | null,
  test = false,
): DeliveryAttempt {
  const at = iso(startedAt);
  return {
    id: ids('att'),
    organization_id: claimed.webhook.organization_id,
    webhook_id: claimed.webhook.id,
    delivery_id: test ? null : claimed.delivery.id,
    event_id: claimed.delivery.event_id,
    event_type: claimed.eventType,
    attempt: claimed.delivery.attempts + 1,
    at,
    succeeded: result.ok,
    status_code: result.statusCode,
    latency_ms: recordedLatency(result.latencyMs),
    error: result.error ? { at, ...result.error } : null,
    next_attempt_at: nextAttemptAt,
  };
}

/** What follows a send: the outcome, and when to try again for a retry. */
function nextStep(
  services: Pick<AttemptServices, 'retry' | 'random' | 'now'>,
  claimed: ClaimedDelivery,
  result: SendResult,
): { outcome: AttemptRecord['outcome']; nextAttemptAt: string | null } {
  if (result.ok) return { outcome: 'delivered', nextAttemptAt: null };
  if (result.statusCode === 410) return { outcome: 'dead_letter', nextAttemptAt: null };
  const decision = nextRetry(
    services.retry,
    claimed.delivery.attempts + 1,
    services.random,
    result.retryAfterSeconds,
  );
  if (!decision.retry) return { outcome: 'dead_letter', nextAttemptAt: null };
  return { outcome: 'retry', nextAttemptAt: iso(services.now() + decision.delayMs) };
}

/** Sends one claimed delivery and decides what follows, recording nothing yet. */
export async function decideAttempt(
  services: AttemptServices,
  claimed: ClaimedDelivery,
): Promise<DecidedAttempt> {
  const attributes = {
    'latchkey.webhook.id': claimed.webhook.id,
    'latchkey.event.id': claimed.delivery.event_id,
    'latchkey.delivery.attempt': claimed.delivery.attempts + 1,
  };
  return traceSpan(
    'latchkey.delivery.attempt',
    attributes,
    async () => {
      const startedAt = services.now();
      const result = await sendSigned(services, claimed.webhook, {
        id: claimed.delivery.event_id,
        json: await withDeliveredTree(
          services.store,
          claimed.delivery.organization_id,
          claimed.delivery.event_seq,
          claimed.eventJson,
          services.trees,
        ),
        traceparent: claimed.delivery.traceparent,
      });
      const { outcome, nextAttemptAt } = nextStep(services, claimed, result);
      const attempt = attemptRow(services.ids, claimed, startedAt, result, nextAttemptAt);
      return { claimed, attempt, outcome, gone: result.statusCode === 410 };
    },
    'client',
    ({ attempt, outcome }) => ({
      'http.response.status_code': attempt.status_code ?? undefined,
      'latchkey.delivery.outcome': outcome,
      'latchkey.delivery.duration_ms': attempt.latency_ms,
      'latchkey.delivery.error': attempt.error?.code,
    }),
    claimed.delivery.traceparent,
  );
}
