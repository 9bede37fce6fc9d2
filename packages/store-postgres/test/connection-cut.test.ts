/**
 * The node-postgres driver when its connections to PostgreSQL are cut (through a TCP proxy the test
 * controls): a connection lost while a transaction holds it is a 503, never a crash of the process;
 * a COMMIT whose answer was lost is looked up once the database answers again, so a transaction
 * that was applied is never reported as failed; LISTEN comes back however long the cut lasts.
 */
import { createPrivateKey } from 'node:crypto';
import { isLatchkeyError, signPush } from '@latchkey/core';
import { createTcpProxy, type TcpProxy } from '@latchkey/test-utils';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../src/driver.js';
import { createPostgresStore } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { setUpAcme, TOKEN } from './acme.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const began = Date.now();
  while (!(await check())) {
    if (Date.now() - began > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** node-postgres sends COMMIT as a simple query: its text ends with a NUL. */
const isCommit = (chunk: Buffer) => chunk.includes('COMMIT\u0000');

const codeOf = (error: unknown) => (isLatchkeyError(error) ? error.code : String(error));

onPostgres('the pg driver, its connections cut by a proxy (real PostgreSQL)', () => {
  describe('the pg driver, its connections cut by a proxy (real PostgreSQL)', () => {
    const schema = freshSchema('lk_cut');
    const table = `"${schema}".writes`;
    let admin: pg.Client;
    let proxy: TcpProxy;
    let driver: SqlDriver;
    // Uncaught errors in this process: a client's 'error' event nobody listens to lands here.
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      await admin.query(`CREATE TABLE ${table} (id text PRIMARY KEY)`);
      process.on('uncaughtException', onUncaught);
    });
    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      await dropSchema(schema);
    });
    beforeEach(async () => {
      const target = new URL(DATABASE_URL);
      proxy = await createTcpProxy({ target: { host: target.hostname, port: Number(target.port || 5432) } });
      const proxied = new URL(DATABASE_URL);
      proxied.host = `127.0.0.1:${proxy.port}`;
      driver = await pgDriver({ connectionString: proxied.href, max: 4, commitCheckTimeoutMs: 10_000 });
      uncaught.length = 0;
    });
    afterEach(async () => {
      proxy.restore();
      await driver.close();
      await proxy.close();
      expect(uncaught).toEqual([]);
    });

    const written = async (id: string) =>
      (await admin.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rowCount === 1;

    it('a connection cut while a transaction holds it is a 503, and the process goes on', async () => {
      const failed = await driver
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} (id) VALUES ('held')`);
          proxy.cut();
          // The client learns of the cut between two statements, while nobody awaits a query.
          await sleep(100);
          await tx.query('SELECT 1');
        })
        .then(
          () => 'committed',
          (error: unknown) => codeOf(error),
        );
      expect(failed).toBe('service_unavailable');
      expect(await written('held')).toBe(false);
      // Idle connections of the pool were cut too: the pool drops them and connects anew.
      proxy.restore();
      expect((await driver.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(uncaught).toEqual([]);
    });

    it('a COMMIT that reached the database but whose answer was lost resolves as committed', async () => {
      const outcome = driver.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} (id) VALUES ('ambiguous')`);
        proxy.cutWhen(isCommit);
        return 'applied';
      });
      await until('the cut', () => proxy.isCut);
      // The database applied it; the driver cannot know until it can ask.
      await until('the commit', () => written('ambiguous'));
      await sleep(300);
      proxy.restore();
      expect(await outcome).toBe('applied');
    });

    it('a transaction cut before its COMMIT is a 503 once the database confirms it was not applied', async () => {
      const outcome = driver
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} (id) VALUES ('rolled-back')`);
          // Cut as the transaction's last statement before COMMIT reaches the database.
          proxy.cutWhen((chunk) => chunk.includes('last statement before COMMIT'));
          await tx.query(`SELECT 'last statement before COMMIT'`);
          return 'applied';
        })
        .then(
          (value) => value,
          (error: unknown) => codeOf(error),
        );
      await until('the cut', () => proxy.isCut);
      proxy.restore();
      expect(await outcome).toBe('service_unavailable');
      expect(await written('rolled-back')).toBe(false);
    });

    it('a COMMIT left unanswered while the database stays away is a 503 that says the outcome is unknown', async () => {
      await driver.close();
      const target = new URL(DATABASE_URL);
      target.host = `127.0.0.1:${proxy.port}`;
      driver = await pgDriver({ connectionString: target.href, max: 2, commitCheckTimeoutMs: 300 });
      const outcome = await driver
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} (id) VALUES ('unknown')`);
          proxy.cutWhen(isCommit);
          return 'applied';
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(codeOf(outcome)).toBe('service_unavailable');
      expect((outcome as Error).message).toMatch(/may have been applied/);
    });

    it('a push whose COMMIT answer was lost answers 200, and is in the chain once', async () => {
      const storeSchema = freshSchema('lk_cut_push');
      const store = await createPostgresStore({ driver, schema: storeSchema });
      try {
        const acme = await setUpAcme(store);
        const body = signPush(
          { device_id: acme.deviceEnv.DEVICE_ID, changes: [{ key: 'WRITTEN_AT_CUT', value: 'applied' }] },
          { organization: 'acme', project: 'web', environment: 'prod' },
          createPrivateKey(acme.deviceEnv.PRIVATE_KEY),
        );
        proxy.cutWhen(isCommit);
        const answer = acme.core.handle({
          method: 'POST',
          url: '/api/v2/organizations/acme/projects/web/environments/prod/push',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await until('the cut', () => proxy.isCut);
        await sleep(300);
        proxy.restore();
        const response = await answer;
        expect(response.status).toBe(200);
        const { event_id } = JSON.parse(response.body as string) as { event_id: string };
        const events = await store.activity.list({ organizationId: acme.organizationId, limit: 100 });
        expect(events.filter((e) => e.type === 'push_applied').map((e) => e.id)).toEqual([event_id]);
      } finally {
        await dropSchema(storeSchema);
      }
    });

    it('LISTEN is issued again once the database is back, however long the cut', async () => {
      const channel = `${schema}_wake`;
      let notified = 0;
      const stop = await driver.listen!(channel, () => notified++);
      const listening = async () =>
        (
          await admin.query(
            `SELECT 1 FROM pg_stat_activity WHERE query = $1 AND state = 'idle' AND pid <> pg_backend_pid()`,
            [`LISTEN "${channel}"`],
          )
        ).rowCount === 1;
      await until('LISTEN', listening);
      proxy.cut();
      // Longer than one reconnection pause: the first tries meet a database that is still away.
      await sleep(2_000);
      proxy.restore();
      await until('LISTEN again', listening);
      const before = notified;
      await admin.query(`NOTIFY "${channel}"`);
      await until('the notification', () => notified > before);
      await stop();
    });
  });
});
