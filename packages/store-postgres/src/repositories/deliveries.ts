/**
 * The audit webhook outbox on SQL, one concern per file: claiming (in turns, under an advisory
 * lock, and a lease), recording an attempt in one transaction (refused if the lease was lost), the rollups and
 * running totals, replay, and the queries.
 */
import type { DeliveryRepository } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { claimDue, releaseClaims } from './delivery-claim.js';
import { attemptPage, countDeliveries, deliveryBacklog, pruneAttempts } from './delivery-queries.js';
import { recordAttempts } from './delivery-record.js';
import { advanceReplays, startReplay } from './replays.js';
import { minuteRollups, pruneRollups } from './rollups.js';
import { totalsBefore } from './running-totals.js';

/** Delivery outbox, attempt log and rollups on SQL. */
export function sqlDeliveries(db: Runner, t: Tables): DeliveryRepository {
  return {
    claim: (options) => claimDue(db, t, options),
    record: (record, lease) =>
      db.atomic(async (q) => (await recordAttempts(q, t, [{ ...record, lease }]))[0]!),
    recordMany: (records) => db.atomic((q) => recordAttempts(q, t, records)),
    release: (claims) => releaseClaims(db, t, claims),
    attempts: (organizationId, webhookId, options) => attemptPage(db, t, organizationId, webhookId, options),
    replay: (organizationId, webhookId, range, at, pace) =>
      startReplay(db, t, organizationId, webhookId, range, at, pace),
    advanceReplays: (at, batch) => advanceReplays(db, t, at, batch),
    minuteRollups: (organizationId, ranges) => minuteRollups(db, t, organizationId, ranges),
    totalsBefore: (organizationId, boundaries) => totalsBefore(db, t, organizationId, boundaries),
    pruneAttempts: (before, batch) => pruneAttempts(db, t, before, batch),
    pruneRollups: (before) => pruneRollups(db, t, before),
    count: (organizationId, webhookId, state) => countDeliveries(db, t, organizationId, webhookId, state),
    backlog: (now) => deliveryBacklog(db, t, now),
  };
}
