/**
 * Seeds organization `acme` of a database up to `count` events, resumably: it continues from the
 * chain's head, so a run stopped part-way picks up where it stopped. Events are sealed as the store
 * seals them and written by the restore's verbatim append (one INSERT … SELECT FROM unnest(…) per
 * batch of 10,000), so the chain stays valid; a push per event would take hours.
 */
import { randomBytes } from 'node:crypto';
import { type ActivityEvent, type ChainHead, GENESIS_HASH, sealEvent } from '@latchkey/core/store';
import { createPostgresStore, type SqlDriver, tablesOf } from '@latchkey/store-postgres';

const BATCH = 10_000;
const TYPES = ['push_applied', 'push_applied', 'push_force_overwrite', 'push_conflict', 'project_created'];

function draft(i: number, occurredAt: number) {
  const type = TYPES[i % TYPES.length]!;
  const data =
    type === 'push_force_overwrite'
      ? {
          conflict_mode: 'lenient',
          keys: [
            {
              key: 'DB_URL',
              server_version: i,
              client_if_version: i - 1,
              new_version: i + 1,
              deleted: false,
            },
          ],
        }
      : type === 'push_conflict'
        ? {
            conflict_mode: 'strict',
            conflicts: [{ key: 'DB_URL', server_version: i, client_if_version: i - 1 }],
          }
        : type === 'project_created'
          ? { project: 'web' }
          : { conflict_mode: 'lenient', versions: [{ key: `KEY_${i % 200}`, version: i, deleted: false }] };
  return {
    id: `evt_bench${randomBytes(6).toString('hex')}${i.toString(16).padStart(8, '0')}`,
    type,
    occurred_at: new Date(occurredAt).toISOString(),
    organization: 'acme',
    project: 'web',
    ...(type === 'project_created' ? {} : { environment: i % 2 ? 'prod' : 'staging' }),
    actor: { type: 'user' as const, id: `user-${i % 50}` },
    data,
  };
}

/** Appends events to `acme` until its chain holds `count`; reports progress; answers the head. */
export async function seedUpTo(
  db: SqlDriver,
  count: number,
  progress: (seq: number) => void,
): Promise<ChainHead> {
  const store = await createPostgresStore({ driver: db });
  const organization = await store.organizations.getBySlug('acme');
  if (!organization)
    throw new Error('organization acme is missing: start the server with a bootstrap token first');
  const newest = (await store.activity.list({ organizationId: organization.id, limit: 1 }))[0];
  let head: ChainHead = newest ? { seq: newest.seq, hash: newest.hash } : { seq: 0, hash: GENESIS_HASH };
  const start = newest ? Date.parse(newest.occurred_at) : Date.now() - count * 50;
  const first = head.seq;
  while (head.seq < count) {
    const events: ActivityEvent[] = [];
    for (let i = head.seq; i < Math.min(count, head.seq + BATCH); i++) {
      const previous = events.at(-1) ?? (head.seq === 0 ? null : head);
      const event = sealEvent(draft(i, start + (i - first) * 50), previous);
      events.push(event);
    }
    await store.restores.insertEvents(organization.id, events);
    head = { seq: events.at(-1)!.seq, hash: events.at(-1)!.hash };
    progress(head.seq);
  }
  await db.query(`VACUUM ANALYZE ${tablesOf('latchkey').events}`);
  return head;
}
