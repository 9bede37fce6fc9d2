/**
 * Seeds an organization's activity chain straight into the tables (the store's own append would
 * take hours for a million events): sealed exactly as the store seals them, written in batches with
 * one INSERT … SELECT FROM unnest(…) each, and, for the raw contender, the same lines to a file.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { type ActivityEvent, type ChainHead, sealEvent } from '@latchkey/core';
import { type SqlQueryable, tablesOf } from '@latchkey/store-postgres';

const BATCH = 10_000;

/** Appends `count` events to organization `organizationId` (slug `acme`) in every target, and their lines to `rawFile`. */
export async function seedEvents(
  targets: { db: SqlQueryable; schema: string }[],
  organizationId: string,
  count: number,
  rawFile: string,
  progress: (done: number) => void,
): Promise<ChainHead> {
  writeFileSync(rawFile, '');
  let head: ChainHead | null = null;
  for (let start = 0; start < count; start += BATCH) {
    const events: ActivityEvent[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const event: ActivityEvent = sealEvent(
        {
          id: `evt_${i.toString(16).padStart(24, '0')}`,
          type: i % 3 === 0 ? 'push_applied' : 'member_added',
          occurred_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          organization: 'acme',
          project: 'web',
          environment: i % 2 ? 'prod' : 'staging',
          actor: { type: 'user', id: `user-${i % 50}` },
          device_id: 'dev_0123456789abcdef01234567',
          data: { versions: [{ key: `KEY_${i % 200}`, version: Math.floor(i / 200) + 1, deleted: false }] },
        },
        head,
      );
      events.push(event);
      head = { seq: event.seq, hash: event.hash };
    }
    const lines = events.map((e) => JSON.stringify(e));
    for (const { db, schema } of targets) {
      const t = tablesOf(schema);
      await db.query(
        `INSERT INTO ${t.events} (organization_id, seq, id, type, project, environment, occurred_at, body)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[])`,
        [
          organizationId,
          events.map((e) => e.seq),
          events.map((e) => e.id),
          events.map((e) => e.type),
          events.map((e) => e.project ?? null),
          events.map((e) => e.environment ?? null),
          events.map((e) => e.occurred_at),
          lines,
        ],
      );
    }
    appendFileSync(rawFile, `${lines.join('\n')}\n`);
    progress(Math.min(count, start + BATCH));
  }
  for (const { db, schema } of targets) {
    await db.query(
      `INSERT INTO ${tablesOf(schema).chains} (organization_id, seq, hash) VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash`,
      [organizationId, head?.seq ?? 0, head?.hash ?? ''],
    );
    // Vacuumed and analysed as autovacuum leaves a live table: visibility settled and statistics
    // gathered, so the first contender to read the rows does not pay for setting their hint bits.
    await db.query(`VACUUM ANALYZE ${tablesOf(schema).events}`);
  }
  return head!;
}
