/** The delivery outbox, attempt log and rollups in memory, one concern per file. */
import type { DeliveryRepository } from '../store/ports/deliveries.js';
import { claimDue, releaseClaims } from './delivery-claim.js';
import { attemptPage, countDeliveries, deliveryBacklog, pruneAttempts } from './delivery-queries.js';
import { recordAttempt } from './delivery-record.js';
import { advanceReplays, startReplay } from './delivery-replay.js';
import { minuteRollups, pruneRollups } from './delivery-rollups.js';
import { totalsBefore } from './running-totals.js';
import type { Journal, MemoryState } from './state.js';

/** The delivery outbox, attempt log and rollups in memory. */
export function memoryDeliveries(state: MemoryState, journal: Journal): DeliveryRepository {
  return {
    async claim(options) {
      return claimDue(state, journal, options);
    },
    async record(record, lease) {
      return recordAttempt(state, journal, record, lease);
    },
    async recordMany(records) {
      return records.map((one) => recordAttempt(state, journal, one, one.lease));
    },
    async release(claims) {
      return releaseClaims(state, journal, claims);
    },
    async attempts(organizationId, webhookId, options) {
      return attemptPage(state, organizationId, webhookId, options);
    },
    async replay(organizationId, webhookId, range, at, pace) {
      return startReplay(state, journal, organizationId, webhookId, range, at, pace);
    },
    async advanceReplays(at, batch) {
      return advanceReplays(state, journal, at, batch);
    },
    async minuteRollups(organizationId, ranges) {
      return minuteRollups(state, organizationId, ranges);
    },
    async totalsBefore(organizationId, boundaries) {
      return totalsBefore(state, journal, organizationId, boundaries);
    },
    async pruneAttempts(before, batch) {
      return pruneAttempts(state, journal, before, batch);
    },
    async pruneRollups(before) {
      return pruneRollups(state, journal, before);
    },
    async count(organizationId, webhookId, wanted) {
      return countDeliveries(state, organizationId, webhookId, wanted);
    },
    async backlog(now) {
      return deliveryBacklog(state, now);
    },
  };
}
