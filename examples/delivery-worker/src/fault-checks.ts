/**
 * What both fault tests check once every event has arrived: each event the webhook is owed was
 * applied exactly once, nothing was refused but replays, worker B stops cleanly with nothing left
 * pending, and the metrics rollups count exactly the attempts in the attempt log (so no flush was
 * half-written when worker A died).
 */
import type { PostgresStore } from '@latchkey/store-postgres';
import pg from 'pg';
import { expect } from 'vitest';
import type { FaultRun } from './fault-scenario.js';
import type { Worker } from './spawn-worker.js';

/** Every event applied once at the receiver; worker B stopped; nothing pending. */
export async function expectEachAppliedOnce(run: FaultRun): Promise<void> {
  const expected = await eventIds(run.store, run.events);
  expect(expected.size).toBe(run.events);
  expect(run.applied.size).toBe(run.events);
  for (const id of expected) expect(run.applied.has(id)).toBe(true);
  expect(run.counts.applied).toBe(run.events);
  expect(run.counts.refused).toBe(0);
  expect(run.counts.requests).toBe(run.counts.applied + run.counts.replays);
  expect(await stop(run.workers[1]!)).toEqual({ code: 0, signal: null });
  expect(run.workers[0]!.child.signalCode).toBe('SIGKILL');
  expect(await pendingDeliveries(run.store)).toBe(0);
}

/** The minute rollups and the attempt log of the webhook agree, attempt for attempt. */
export async function expectRollupsMatchAttempts(run: FaultRun): Promise<{ attempts: number }> {
  const { logged, rolled } = await sql<{ logged: string; rolled: string }>(
    run,
    `SELECT (SELECT count(*) FROM latchkey.webhook_attempts) AS logged,
            (SELECT coalesce(sum(attempted), 0) FROM latchkey.webhook_rollups WHERE unit = 'minute') AS rolled`,
  );
  expect(Number(rolled)).toBe(Number(logged));
  return { attempts: Number(logged) };
}

/** The first row of `text` on the scenario's database, on a connection of its own. */
export async function sql<Row>(run: FaultRun, text: string, params: unknown[] = []): Promise<Row> {
  const client = new pg.Client({ connectionString: run.url.href });
  await client.connect();
  try {
    return (await client.query(text, params)).rows[0] as Row;
  } finally {
    await client.end();
  }
}

/** The figures a fault test prints. */
export function report(title: string, run: FaultRun, lines: [string, string | number][]): void {
  const rows: [string, string | number][] = [
    ['events written', run.events],
    ...lines,
    ['requests at the receiver', run.counts.requests],
    ['applied (distinct event ids)', run.counts.applied],
    ['refused as replays', run.counts.replays],
    ['refused otherwise', run.counts.refused],
    ["survivor's last line", run.workers[1]!.output().trim().split('\n').at(-1) ?? ''],
  ];
  console.log([title, ...rows.map(([name, value]) => `  ${name.padEnd(30)} ${value}`)].join('\n'));
}

/** The ids of every event the webhook is owed: its own creation event and every one after it. */
async function eventIds(store: PostgresStore, events: number): Promise<Set<string>> {
  const organization = await store.organizations.getBySlug('acme');
  const ids = new Set<string>();
  let seen = false;
  const list = await store.activity.list({
    organizationId: organization!.id,
    oldestFirst: true,
    limit: events * 2,
  });
  for (const event of list) {
    if (event.type === 'audit_webhook_created') seen = true;
    if (seen) ids.add(event.id);
  }
  return ids;
}

async function pendingDeliveries(store: PostgresStore): Promise<number> {
  const organization = await store.organizations.getBySlug('acme');
  const [hook] = await store.auditWebhooks.list(organization!.id);
  return store.deliveries.count(organization!.id, hook!.id, 'pending');
}

function stop(worker: Worker): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    worker.child.once('exit', (code, signal) => resolve({ code, signal }));
    worker.child.kill('SIGTERM');
  });
}
