/** What the webhook part of the store conformance suite shares (see `webhooks.ts`). */
import type {
  ActivityDraft,
  AttemptRecord,
  AuditWebhook,
  DeliveryAttempt,
  LatchkeyStore,
} from '@latchkey/core/store';

/** The store the webhook tests run on, and fresh ids. */
export interface WebhookFixture {
  store: LatchkeyStore;
  id(prefix: string): string;
}

/** The time the tests' records start at. */
export const T0 = '2026-11-22T10:00:00.000Z';
/** A pace that replays these few events in one batch. */
export const PACE = { batch: 100, maxEvents: 1_000 };
/** `seconds` after {@link T0}. */
export const later = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** What {@link webhookKit} returns. */
export type WebhookKit = ReturnType<typeof webhookKit>;

/** What the webhook tests share: an organization with webhooks in given states, an attempt and its record. */
export function webhookKit(fixture: () => WebhookFixture) {
  /** A fresh organization with webhooks in the given states. */
  async function setUp(statuses: AuditWebhook['status'][]) {
    const { store, id } = fixture();
    const orgId = id('org');
    await store.organizations.create({ id: orgId, slug: `wh-${orgId.slice(-8)}`, name: 'W', created_at: T0 });
    const webhooks: AuditWebhook[] = [];
    for (const [i, status] of statuses.entries()) {
      const webhook: AuditWebhook = {
        id: id('awh'),
        organization_id: orgId,
        name: `hook ${i}`,
        url: `https://hooks.example/${i}`,
        status,
        event_types: [],
        secret_sealed: `lk1.k1.sealed-${i}`,
        consecutive_failures: 0,
        last_delivery: null,
        last_error: null,
        created_at: later(i),
        created_by: 'admin',
      };
      await store.auditWebhooks.create(webhook);
      webhooks.push(webhook);
    }
    const draft = (type = 'push_applied', at = T0): ActivityDraft => ({
      id: id('evt'),
      type,
      occurred_at: at,
      organization: 'w',
      actor: { type: 'user', id: 'admin' },
      data: { note: 'a "quoted" \\ value' },
    });
    return { store, id, orgId, webhooks, draft };
  }

  const attemptOf = (
    claimed: {
      delivery: {
        id: string;
        organization_id: string;
        webhook_id: string;
        event_id: string;
        attempts: number;
      };
    },
    id: (prefix: string) => string,
    at: string,
    succeeded: boolean,
    latencyMs = 120,
    nextAttemptAt: string | null = null,
  ): DeliveryAttempt => ({
    id: id('att'),
    organization_id: claimed.delivery.organization_id,
    webhook_id: claimed.delivery.webhook_id,
    delivery_id: claimed.delivery.id,
    event_id: claimed.delivery.event_id,
    event_type: 'push_applied',
    attempt: claimed.delivery.attempts + 1,
    at,
    succeeded,
    status_code: succeeded ? 200 : 500,
    latency_ms: latencyMs,
    error: succeeded
      ? null
      : { at, code: 'http_status', status_code: 500, message: 'the receiver answered 500' },
    next_attempt_at: nextAttemptAt,
  });

  const record = (attempt: DeliveryAttempt, outcome: AttemptRecord['outcome']): AttemptRecord => ({
    attempt,
    outcome,
  });
  return { fixture, setUp, attemptOf, record };
}
