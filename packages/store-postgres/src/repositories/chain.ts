/**
 * Appending to an organization's hash chain on SQL. The chain's head row is locked first (and
 * created, race-safely, for the first event), so concurrent appends from any number of processes
 * queue on it and the chain never forks. Must run inside a transaction.
 */
import { type ActivityDraft, type ActivityEvent, type ChainHead, sealEvent } from '@latchkey/core';
import type { SqlQueryable } from '../driver.js';
import { int } from '../rows.js';
import type { Tables } from '../schema-name.js';

/** Seals `draft` after the organization's head, stores it and moves the head; returns the event. */
export async function appendToChain(
  tx: SqlQueryable,
  t: Tables,
  organizationId: string,
  draft: ActivityDraft,
): Promise<ActivityEvent> {
  await tx.query(
    `INSERT INTO ${t.chains} (organization_id, seq, hash) VALUES ($1, 0, '') ON CONFLICT (organization_id) DO NOTHING`,
    [organizationId],
  );
  const { rows } = await tx.query<{ seq: unknown; hash: string }>(
    `SELECT seq, hash FROM ${t.chains} WHERE organization_id = $1 FOR UPDATE`,
    [organizationId],
  );
  const seq = int(rows[0]!.seq);
  const head: ChainHead | null = seq === 0 ? null : { seq, hash: rows[0]!.hash };
  const event = sealEvent(draft, head);
  await tx.query(
    `INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      organizationId,
      event.seq,
      event.id,
      event.type,
      event.project ?? null,
      event.environment ?? null,
      event.occurred_at,
      JSON.stringify(event),
    ],
  );
  await tx.query(`UPDATE ${t.chains} SET seq = $2, hash = $3 WHERE organization_id = $1`, [
    organizationId,
    event.seq,
    event.hash,
  ]);
  return event;
}
