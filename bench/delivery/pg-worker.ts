/**
 * One delivery worker process of `bench:delivery` on PostgreSQL: the engine on a store of its own,
 * sharing the outbox with the other workers (SKIP LOCKED claims), woken by LISTEN/NOTIFY.
 *
 * Env: DATABASE_URL, SCHEMA, KEYRING, CONCURRENCY, NODE_EXTRA_CA_CERTS. IPC: sends `{ready}`; starts
 * on `{go}`; on `{stop}` drains, sends its counts and exits.
 */
import { createDeliveryEngine } from '@latchkey/core/webhooks';
import { createPostgresStore, pgDriver } from '@latchkey/store-postgres';

const env = process.env;
const concurrency = Number(env['CONCURRENCY']);
const store = await createPostgresStore({
  driver: await pgDriver({ connectionString: env['DATABASE_URL']!, max: 4 }),
  schema: env['SCHEMA']!,
  migrate: false,
});
const engine = createDeliveryEngine({
  store,
  keyring: env['KEYRING']!,
  webhooks: { allowHosts: 'localhost' },
  concurrency,
  batchSize: concurrency * 2,
});
process.send!({ ready: true });
process.on('message', async (message: { go?: boolean; stop?: boolean }) => {
  if (message.go) engine.start();
  if (message.stop) {
    await engine.stop();
    await store.close();
    process.send!({ counts: engine.counts }, () => process.exit(0));
  }
});
