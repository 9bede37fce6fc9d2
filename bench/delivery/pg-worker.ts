/**
 * One delivery worker process of `bench:delivery` on PostgreSQL: the engine on a store of its own,
 * sharing the outbox with the other workers (SKIP LOCKED claims), woken by LISTEN/NOTIFY.
 *
 * Its driver counts the statements and transactions it is sent (`counting-driver.ts`), from `{go}`
 * on.
 *
 * Env: DATABASE_URL, SCHEMA, KEYRING, CONCURRENCY, NODE_EXTRA_CA_CERTS. IPC: sends `{ready}`; resets
 * its SQL counters and starts on `{go}`; answers `{cpu}` with its CPU seconds and preemptions since `{go}`; on
 * `{stop}` drains, sends its counts and its SQL counters (`{counts, sql}`) and exits.
 */
import { createDeliveryEngine } from '@latchkey/core/webhooks';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { countingDriver } from './counting-driver.js';
import { ownCpuSeconds, ownPreemptions } from './cpu.js';

const env = process.env;
const concurrency = Number(env['CONCURRENCY']);
const driver = countingDriver(await pgDriver({ connectionString: env['DATABASE_URL']!, max: 4 }));
const store = await createPostgresStore({
  driver,
  schema: env['SCHEMA']!,
  migrate: false,
});
const engine = createDeliveryEngine({
  store,
  keyring: env['KEYRING']!,
  webhooks: { allowHosts: 'localhost' },
  concurrency,
});
process.send!({ ready: true });
let cpuAtGo = 0;
let preemptedAtGo = 0;
process.on('message', async (message: { go?: boolean; cpu?: boolean; stop?: boolean }) => {
  if (message.go) {
    driver.reset();
    cpuAtGo = ownCpuSeconds();
    preemptedAtGo = ownPreemptions();
    engine.start();
  }
  if (message.cpu)
    process.send!({ cpu: ownCpuSeconds() - cpuAtGo, preempted: ownPreemptions() - preemptedAtGo });
  if (message.stop) {
    await engine.stop();
    await store.close();
    process.send!({ counts: engine.counts, sql: { ...driver.counters } }, () => process.exit(0));
  }
});
