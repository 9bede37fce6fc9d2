/**
 * Port: the delivery outbox of audit webhooks, its attempt log and the metrics rollups.
 *
 * Deliveries are written by `activity.append` in the same atomic step as their event: one per
 * webhook of the organization, `pending` (due at once) for an `active` one, `held` for a
 * `dead_letter` one, none for a `disabled` one, and none at all for a `webhook_test` event (a test
 * goes to its own webhook, at once). So an event that is rolled back is never delivered, and one
 * that is committed is never lost.
 */

import type { AuditWebhook, Delivery, DeliveryAttempt } from '../../model/model.js';
import type { RollupSource } from '../../model/rollup-source.js';
import type { WebhookLimits } from '../../model/webhook-limits.js';

/** What `DeliveryRepository.claim` takes: when, how many, the lease, and the per-webhook shares. */
export interface ClaimOptions {
  now: string;
  limit: number;
  leaseUntil: string;
  /** At most this many deliveries of one webhook in this claim. Default: no cap. */
  perWebhook?: number;
  /** By webhook id: at most this many of it in this claim (the caller's share left for it). */
  room?: Readonly<Record<string, number>>;
  /** Limits counted across every worker, see {@link WebhookLimits}. */
  limits?: WebhookLimits;
}

/** A delivery a worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: Delivery;
  webhook: Pick<
    AuditWebhook,
    | 'id'
    | 'organization_id'
    | 'name'
    | 'url'
    | 'secret_sealed'
    | 'headers'
    | 'client_certificate'
    | 'signature_scheme'
    | 'previous_secret'
  >;
  /** The event as stored (its JSON text, exactly as history returns it). */
  eventJson: string;
  eventType: string;
}

/** What happened to one attempt, and what follows from it (decided by the delivery engine). */
export interface AttemptRecord {
  attempt: DeliveryAttempt;
  /**
   * For a delivery: `delivered`; `retry` at `attempt.next_attempt_at`; or `dead_letter` (schedule
   * exhausted or 410): the delivery is held, the webhook moves to `dead_letter` and its other pending
   * deliveries are held too. For a test attempt: `test` (counters and state untouched).
   */
  outcome: 'delivered' | 'retry' | 'dead_letter' | 'test';
}

/** An outcome to record with {@link DeliveryRepository.recordMany}, and the lease it was claimed under. */
export interface LeasedAttemptRecord extends AttemptRecord {
  /** The delivery's `lease_until` as claimed (null for a test attempt). */
  lease: string | null;
}

/** Page of the attempt log, newest first. */
export interface AttemptPage {
  attempts: DeliveryAttempt[];
  /** Pass as `beforeId` for the next page; null at the end. */
  next: string | null;
}

/** The outbox and attempt log; the rollups as the metrics read them come from {@link RollupSource}. */
export interface DeliveryRepository extends RollupSource {
  /**
   * Claims up to `limit` deliveries that are `pending`, due at `now`, of an `active` webhook, and not
   * leased to anyone else (or whose lease has ended: a crashed worker's claims are taken over),
   * leasing each to the caller until `leaseUntil`. Concurrent callers never get the same delivery
   * (SQL: claims take turns under an advisory lock and lease what they take); no lock outlives the
   * claim, none is held across the network.
   *
   * Fair, round-robin: each webhook's due deliveries are ranked oldest first, each organization's
   * candidates take turns by that rank (its webhooks' first, then their second, ...), and the claim
   * takes every organization's first turn, then every second one, oldest due first within a turn.
   * So a webhook with a backlog (or a hanging receiver) never pushes another organization's
   * delivery out of a claim. How many one webhook may get is the least of `perWebhook` (default:
   * no cap), `room[webhookId]` (the caller's own share left for it), its `limits.inFlight` minus its
   * live leases (every worker's), and its `limits.perSecond` minus the claims of it made in the
   * current UTC second of `now` (every worker's). Limited webhooks' backlogs stay pending without
   * holding up anybody else. Claims on one database take turns (SQL: an advisory transaction lock
   * for the length of the claim), so the counts hold across workers. The result is in claim order.
   */
  claim(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt in one atomic step: the attempt log row; the minute and hour rollups of its
   * webhook, and its running totals before any minute boundary after the attempt's minute (an attempt
   * recorded after a total was taken still counts in it); the webhook's `last_delivery` (this
   * attempt), `last_error` (this attempt's error when it failed, unchanged when it succeeded) and
   * `consecutive_failures` (reset by a success, raised by a failure; untouched by a test); the
   * delivery's state per `outcome`, its attempts and lease released. Returns false, writing
   * nothing, when the delivery is no longer leased as claimed (a worker whose lease ran out and was
   * taken over). Attempts of one webhook are recorded one after another (SQL: its row is locked).
   */
  record(record: AttemptRecord, lease: string | null): Promise<boolean>;
  /**
   * Records several outcomes in one atomic step, exactly as calling `record` for each in turn, in
   * order, would: a record whose lease was lost writes nothing and the others go on; a webhook's
   * health ends as its outcomes in order leave it (consecutive failures, last delivery and error),
   * and it moves to `dead_letter` when one of its outcomes is a dead letter, holding its pending
   * deliveries. Returns, in order, whether each was recorded. SQL: a constant number of statements
   * whatever the number of records (attempt rows in one, rollups summed per webhook and minute or
   * hour and upserted in one, the running totals moved once per row, the webhooks' health in one,
   * the deliveries' states in one), the webhooks' rows locked in id order first.
   */
  recordMany(records: readonly LeasedAttemptRecord[]): Promise<boolean[]>;
  /**
   * Gives back claims not attempted (an engine stopping with deliveries queued): each delivery still
   * leased as claimed (`lease`: its `lease_until` then) is claimable again at once; one leased anew
   * meanwhile is left alone. Returns how many it gave back.
   */
  release(claims: readonly { id: string; lease: string | null }[]): Promise<number>;
  /** A webhook's attempts, newest first, at most `limit`, before the attempt `beforeId` if given. */
  attempts(
    organizationId: string,
    webhookId: string,
    options: { limit: number; beforeId?: string },
  ): Promise<AttemptPage>;
  /**
   * Starts a replay of the log to one webhook: every event of the organization that occurred at or
   * after `range.since` (and before `range.until`, when given), up to the last event at this step, by
   * the outbox rule with the webhook's filter as it stands when each batch is queued, in `seq` order.
   * An event already owed to the webhook is not queued twice. In one atomic step it counts those
   * events (`limit` and nothing written when there are more than `pace.maxEvents`; `busy` when a
   * replay of the webhook is still under way; 0 for a disabled webhook), keeps a cursor over them and
   * queues the first `pace.batch` of them at once when the webhook is active (whatever it has due);
   * the rest are queued by later advances. Returns how many events the replay covers.
   */
  replay(
    organizationId: string,
    webhookId: string,
    range: ReplayRange,
    at: string,
    pace: ReplayPace,
  ): Promise<number | 'limit' | 'busy'>;
  /**
   * Moves every replay under way on by at most `batch` events: a replay whose webhook is active and
   * has nothing due at `at` (pending, its time come; a claimed one included) queues its next events
   * as `pending` due at `at`, so the live deliveries queued meanwhile are sent before the next batch;
   * one whose webhook is dead-lettered waits; one that has queued its last event, or whose webhook is
   * disabled, ends. Each replay moves in a step of its own. Returns how many deliveries it queued.
   */
  advanceReplays(at: string, batch: number): Promise<number>;
  /** Deletes attempts older than `before`, at most `batch` of them; returns how many. */
  pruneAttempts(before: string, batch: number): Promise<number>;
  /**
   * Deletes the rollups and running totals of every organization that started before `before` (an
   * hour boundary), first taking the totals at `before`, so the totals taken later still add up;
   * returns how many rows it deleted.
   */
  pruneRollups(before: string): Promise<number>;
  /** Due deliveries of the organization's webhooks, for a webhook or all (tests, the dashboard). */
  count(organizationId: string, webhookId: string, state: Delivery['state']): Promise<number>;
  /**
   * The queue of every organization that has pending deliveries (for `core.metricsText()`): how
   * many are pending (due or waiting for a retry) and the earliest due time among those due at
   * `now` (null when none is due yet). One read over the pending deliveries; organizations without
   * any are left out.
   */
  backlog(now: string): Promise<DeliveryBacklog[]>;
}

/** The events a replay covers: from `since` (inclusive) to `until` (exclusive) when given. */
export interface ReplayRange {
  since: string;
  until?: string | undefined;
}

/** How a replay is paced: events queued per advance, and the most one replay may cover. */
export interface ReplayPace {
  batch: number;
  maxEvents: number;
}

/** One organization's pending deliveries, as {@link DeliveryRepository.backlog} answers. */
export interface DeliveryBacklog {
  organizationId: string;
  pending: number;
  /** The earliest `next_attempt_at` at or before `now`, or null when nothing is due. */
  oldestDueAt: string | null;
}
