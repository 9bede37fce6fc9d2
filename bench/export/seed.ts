/**
 * Seeds an organization's activity chain straight into the tables (the store's own append would
 * take hours for a million events): sealed exactly as the store seals them, written in batches by the
 * restore's verbatim append (one INSERT … SELECT FROM unnest(…) each), and, for the raw contender,
 * the same lines to a file.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { type ActivityEvent, type ChainHead, sealEvent } from '@latchkey/core/store';
import { type PostgresStore, type SqlQueryable, tablesOf } from '@latchkey/store-postgres';

const BATCH = 10_000;

/** A store to seed, with the connection and schema it uses (for VACUUM ANALYZE). */
export interface SeedTarget {
  store: PostgresStore;
  db: SqlQueryable;
  schema: string;
}

/** Appends `count` events to organization `organizationId` (slug `acme`) in every target, and their lines to `rawFile`. */
export async function seedEvents(
  targets: SeedTarget[],
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
    // The restore's own append: the rows a restore writes, and the chain head moved to the last one.
    for (const { store } of targets) await store.restores.insertEvents(organizationId, events);
    appendFileSync(rawFile, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    progress(Math.min(count, start + BATCH));
  }
  for (const { db, schema } of targets) {
    // Vacuumed and analysed as autovacuum leaves a live table: visibility settled and statistics
    // gathered, so the first contender to read the rows does not pay for setting their hint bits.
    await db.query(`VACUUM ANALYZE ${tablesOf(schema).events}`);
  }
  return head!;
}
