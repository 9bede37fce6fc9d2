/**
 * Port: the delivery outbox of audit webhooks, its attempt log and the metrics rollups.
 *
 * Deliveries are written by `activity.append` in the same atomic step as their event: one per
 * webhook of the organization, `pending` (due at once) for an `active` one, `held` for a
 * `dead_letter` one, none for a `disabled` one, and none at all for a `webhook_test` event (a test
 * goes to its own webhook, at once). So an event that is rolled back is never delivered, and one
 * that is committed is never lost.
 */
import type { AuditWebhook, Delivery, DeliveryAttempt } from '../../model.js';
import type { Rollup } from '../../webhooks/metrics-rollup.js';

/** A delivery a worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: Delivery;
  webhook: Pick<AuditWebhook, 'id' | 'organization_id' | 'name' | 'url' | 'secret_sealed'>;
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

/** Page of the attempt log, newest first. */
export interface AttemptPage {
  attempts: DeliveryAttempt[];
  /** Pass as `beforeId` for the next page; null at the end. */
  next: string | null;
}

export interface DeliveryRepository {
  /**
   * Claims up to `limit` deliveries that are `pending`, due at `now`, of an `active` webhook, and not
   * leased to anyone else (or whose lease has ended: a crashed worker's claims are taken over),
   * leasing each to the caller until `leaseUntil`. Concurrent callers never get the same delivery
   * (SQL: `FOR UPDATE SKIP LOCKED`). Oldest due first.
   */
  claim(options: { now: string; limit: number; leaseUntil: string }): Promise<ClaimedDelivery[]>;
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
  /** A webhook's attempts, newest first, at most `limit`, before the attempt `beforeId` if given. */
  attempts(
    organizationId: string,
    webhookId: string,
    options: { limit: number; beforeId?: string },
  ): Promise<AttemptPage>;
  /**
   * Queues again every event of the organization that occurred at or after `since`, for one webhook:
   * `pending` due at `at` when it is active, `held` when dead-lettered (refused by the caller when
   * disabled). Returns how many deliveries it queued.
   */
  replay(organizationId: string, webhookId: string, since: string, at: string): Promise<number>;
  /** The organization's minute rollups starting in any of `ranges` (half-open, ISO times), merged per webhook. */
  minuteRollups(organizationId: string, ranges: { from: string; to: string }[]): Promise<Map<string, Rollup>>;
  /**
   * For each minute boundary in `boundaries` (ISO times): every webhook of the organization's
   * running total, the sum of its attempts that started before the boundary (webhooks with none: an
   * empty rollup or absent). A total is taken once, from the latest earlier total plus the rollups
   * since (minutes at the ends, whole hours between), in a step no attempt being recorded for the
   * webhook interleaves with, then kept right by `record`; so reading one costs the same whatever
   * the traffic. A base in the same hour as the new total, not on the hour, may be dropped (a window
   * read every minute then keeps about one total per webhook and hour).
   */
  totalsBefore(organizationId: string, boundaries: string[]): Promise<Map<string, Map<string, Rollup>>>;
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
}
