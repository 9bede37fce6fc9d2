/** Reading and pruning the attempt log and the outbox on SQL. */
import type { AttemptPage, Delivery, DeliveryBacklog } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { ATTEMPT_COLUMNS, toAttempt } from './delivery-rows.js';

/** See `DeliveryRepository.attempts`. */
export async function attemptPage(
  db: Runner,
  t: Tables,
  organizationId: string,
  webhookId: string,
  { limit, beforeId }: { limit: number; beforeId?: string },
): Promise<AttemptPage> {
  const before =
    beforeId === undefined
      ? ''
      : `AND position < (SELECT position FROM ${t.attempts} WHERE id = $4 AND webhook_id = $2)`;
  const params: unknown[] = [organizationId, webhookId, limit + 1];
  if (beforeId !== undefined) params.push(beforeId);
  const { rows } = await db.query(
    `SELECT ${ATTEMPT_COLUMNS} FROM ${t.attempts}
     WHERE organization_id = $1 AND webhook_id = $2 ${before}
     ORDER BY position DESC LIMIT $3`,
    params,
  );
  const page = rows.slice(0, limit).map(toAttempt);
  return { attempts: page, next: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** See `DeliveryRepository.pruneAttempts`. */
export async function pruneAttempts(db: Runner, t: Tables, before: string, batch: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM ${t.attempts} WHERE position IN (
       SELECT position FROM ${t.attempts} WHERE at < $1 ORDER BY at LIMIT $2)`,
    [before, batch],
  );
  return rowCount;
}

/** See `DeliveryRepository.count`. */
export async function countDeliveries(
  db: Runner,
  t: Tables,
  organizationId: string,
  webhookId: string,
  state: Delivery['state'],
): Promise<number> {
  const { rows } = await db.query<{ n: unknown }>(
    `SELECT count(*) AS n FROM ${t.deliveries} WHERE organization_id = $1 AND webhook_id = $2 AND state = $3`,
    [organizationId, webhookId, state],
  );
  return Number(rows[0]!.n);
}

/** See `DeliveryRepository.backlog`: one pass over the pending deliveries (their partial index). */
export async function deliveryBacklog(db: Runner, t: Tables, now: string): Promise<DeliveryBacklog[]> {
  const { rows } = await db.query<{
    organization_id: string;
    pending: unknown;
    oldest_due_at: Date | string | null;
  }>(
    `SELECT organization_id, count(*) AS pending,
            min(next_attempt_at) FILTER (WHERE next_attempt_at <= $1) AS oldest_due_at
     FROM ${t.deliveries} WHERE state = 'pending' GROUP BY organization_id`,
    [now],
  );
  return rows.map((r) => ({
    organizationId: r.organization_id,
    pending: Number(r.pending),
    oldestDueAt: r.oldest_due_at === null ? null : new Date(r.oldest_due_at).toISOString(),
  }));
}
