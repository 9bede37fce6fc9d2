/**
 * Statements in one round trip on node-postgres (`pg-pipeline.ts`) and the transactions built on
 * it: BEGIN with the first statement, deferred statements with the next one or with the COMMIT.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pipeline } from '../src/drivers/pg/pipeline.js';
import { pgDriver } from '../src/pg.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';

onPostgres('pipelines on node-postgres', () => {
  const schema = freshSchema('lk_pipeline');
  const table = `"${schema}".t`;
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  /** The socket writes node-postgres makes. */
  const writes: string[] = [];

  beforeAll(async () => {
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, body text NOT NULL, at timestamptz)`);
  });
  afterAll(async () => {
    await pool.end();
    await dropSchema(schema);
  });

  const watched = new WeakSet<object>();
  async function client() {
    const c = await pool.connect();
    if (watched.has(c)) return c;
    watched.add(c);
    // The socket's own writes: one per `write` call, or one for everything written while corked.
    const socket = (c as unknown as { connection: { stream: Record<string, (...a: unknown[]) => unknown> } })
      .connection.stream;
    for (const method of ['_write', '_writev']) {
      const original = socket[method]!.bind(socket);
      socket[method] = (...a: unknown[]) => {
        writes.push(method);
        return original(...a);
      };
    }
    return c;
  }

  it('answers every statement in order, with rows parsed by type, in one write', async () => {
    const c = await client();
    try {
      writes.length = 0;
      const answers = await pipeline(c, [
        {
          text: `INSERT INTO ${table} (id, body, at) VALUES ($1, $2, $3)`,
          values: [1, 'one', new Date(0)],
          name: 'lk_pipeline_insert',
        },
        {
          text: `SELECT id, body, at, ARRAY[$1::int, 2] AS list FROM ${table} WHERE id = $1`,
          values: [1],
          name: 'lk_pipeline_select',
        },
        { text: `UPDATE ${table} SET body = body || $1 WHERE id > 0`, values: ['!'] },
      ]);
      // cork/uncork: the whole pipeline leaves in one write.
      expect(writes).toHaveLength(1);
      expect(answers.map((a) => a.rowCount)).toEqual([1, 1, 1]);
      expect(answers[1]!.rows).toEqual([{ id: 1, body: 'one', at: new Date(0), list: [1, 2] }]);
      // The named statements are prepared now: the same texts again send no Parse.
      writes.length = 0;
      const again = await pipeline(c, [
        {
          text: `SELECT id, body, at, ARRAY[$1::int, 2] AS list FROM ${table} WHERE id = $1`,
          values: [1],
          name: 'lk_pipeline_select',
        },
      ]);
      expect(again[0]!.rows[0]).toMatchObject({ body: 'one!' });
    } finally {
      c.release();
    }
  });

  it('stops at the first failure: nothing after it runs, and the connection and its prepared statements stay usable', async () => {
    const c = await client();
    try {
      const failing = pipeline(c, [
        {
          text: `INSERT INTO ${table} (id, body) VALUES ($1, $2)`,
          values: [2, 'two'],
          name: 'lk_pipeline_insert2',
        },
        {
          text: `INSERT INTO ${table} (id, body) VALUES ($1, $2)`,
          values: [1, 'duplicate'],
          name: 'lk_pipeline_insert2',
        },
        {
          text: `INSERT INTO ${table} (id, body) VALUES ($1, $2) RETURNING id`,
          values: [3, 'three'],
          name: 'lk_pipeline_after',
        },
      ]);
      await expect(failing).rejects.toMatchObject({ code: '23505' });
      // Outside a transaction the pipeline is one implicit transaction: the first insert is gone too.
      const { rows } = await c.query(`SELECT id FROM ${table} ORDER BY id`);
      expect(rows.map((r) => r.id)).toEqual([1]);
      // The statement whose Parse the server skipped is parsed again, not assumed prepared.
      const answers = await pipeline(c, [
        {
          text: `INSERT INTO ${table} (id, body) VALUES ($1, $2) RETURNING id`,
          values: [3, 'three'],
          name: 'lk_pipeline_after',
        },
      ]);
      expect(answers[0]!.rows).toEqual([{ id: 3 }]);
    } finally {
      c.release();
    }
  });

  it('refuses one name for two texts before sending anything, and the client goes on', async () => {
    const c = await client();
    try {
      writes.length = 0;
      await expect(
        pipeline(c, [
          { text: `SELECT $1::int AS a`, values: [1], name: 'lk_pipeline_twice' },
          { text: `SELECT $1::int AS b`, values: [2], name: 'lk_pipeline_twice' },
        ]),
      ).rejects.toThrow('names two texts');
      expect(writes).toHaveLength(0);
      const answers = await pipeline(c, [{ text: `SELECT $1::int AS c`, values: [3] }]);
      expect(answers[0]!.rows).toEqual([{ c: 3 }]);
    } finally {
      c.release();
    }
  });

  it('fails before sending anything when a value cannot be sent', async () => {
    const c = await client();
    try {
      const circular: Record<string, unknown> = {};
      circular['self'] = circular;
      writes.length = 0;
      await expect(
        pipeline(c, [
          { text: `INSERT INTO ${table} (id, body) VALUES ($1, $2)`, values: [9, 'nine'] },
          { text: `INSERT INTO ${table} (id, body) VALUES ($1, $2)`, values: [10, circular] },
        ]),
      ).rejects.toThrow();
      expect(writes).toHaveLength(0);
      const { rows } = await c.query(`SELECT count(*)::int AS n FROM ${table} WHERE id IN (9, 10)`);
      expect(rows[0].n).toBe(0);
    } finally {
      c.release();
    }
  });
});

onPostgres('transactions on node-postgres, in few round trips', () => {
  const schema = freshSchema('lk_pipeline_tx');
  const table = `"${schema}".t`;
  let driver: Awaited<ReturnType<typeof pgDriver>>;
  beforeAll(async () => {
    driver = await pgDriver({ connectionString: DATABASE_URL, max: 2 });
    await driver.query(`CREATE SCHEMA "${schema}"`);
    await driver.query(`CREATE TABLE ${table} (id int PRIMARY KEY, body text NOT NULL)`);
  });
  afterAll(async () => {
    await driver.close();
    await dropSchema(schema);
  });

  const count = async () =>
    Number((await driver.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

  it('commits deferred statements with the COMMIT, in order, after the queries', async () => {
    const id = await driver.transaction(async (tx) => {
      tx.defer!(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [1, 'a']);
      tx.defer!(`UPDATE ${table} SET body = body || $2 WHERE id = $1`, [1, 'b']);
      // A query goes after what was deferred before it, in the same round trip.
      const { rows } = await tx.query<{ body: string }>(`SELECT body FROM ${table} WHERE id = $1`, [1]);
      tx.defer!(`UPDATE ${table} SET body = body || $2 WHERE id = $1`, [1, 'c']);
      return rows[0]!.body;
    });
    expect(id).toBe('ab');
    const { rows } = await driver.query<{ body: string }>(`SELECT body FROM ${table} WHERE id = 1`);
    expect(rows[0]!.body).toBe('abc');
  });

  it('rolls back everything when a deferred statement fails at the COMMIT, and the connection serves the next transaction', async () => {
    const before = await count();
    await expect(
      driver.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [2, 'kept?']);
        tx.defer!(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [1, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await count()).toBe(before);
    // Both connections of the pool are clean: two transactions at once both commit.
    await Promise.all(
      [3, 4].map((id) =>
        driver.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [id, 'x']);
        }),
      ),
    );
    expect(await count()).toBe(before + 2);
  });

  it('rolls back what a failed function sent, deferred statements included', async () => {
    const before = await count();
    await expect(
      driver.transaction(async (tx) => {
        tx.defer!(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [5, 'never']);
        await tx.query(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [6, 'never']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count()).toBe(before);
  });

  it('runs text without parameters (several statements) after what was deferred', async () => {
    await driver.transaction(async (tx) => {
      tx.defer!(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, [7, 'seven']);
      await tx.query(
        `UPDATE ${table} SET body = 'SEVEN' WHERE id = 7; UPDATE ${table} SET body = body || '!' WHERE id = 7`,
      );
    });
    const { rows } = await driver.query<{ body: string }>(`SELECT body FROM ${table} WHERE id = 7`);
    expect(rows[0]!.body).toBe('SEVEN!');
  });
});
