/**
 * The PGlite driver speaks PGlite's wire protocol itself (`drivers/pglite/wire.ts`): statements
 * prepared once, a transaction's BEGIN and deferred statements sent with its other statements.
 * What callers see must be what PGlite's own `query` and `transaction` gave them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGLITE_PREPARED_LIMIT } from '../src/drivers/pglite/wire.js';
import type { SqlDriver } from '../src/index.js';
import { pgliteDriver } from '../src/pglite.js';

let driver: SqlDriver;
beforeAll(async () => {
  driver = await pgliteDriver();
  await driver.query('CREATE TABLE t (id int PRIMARY KEY, name text, tags text[], at timestamptz)');
});
afterAll(() => driver.close());

const names = async () =>
  (await driver.query<{ name: string }>('SELECT name FROM t ORDER BY id')).rows.map((r) => r.name);

describe('the PGlite driver on the wire protocol', () => {
  it('binds NULLs, arrays, dates and numbers, and counts the rows a statement touched', async () => {
    const at = new Date('2026-12-02T10:00:00.000Z');
    const inserted = await driver.query(
      'INSERT INTO t (id, name, tags, at) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)',
      [1, 'one', ['a', "b'c"], at, 2, null, [], null],
    );
    expect(inserted.rowCount).toBe(2);
    const { rows } = await driver.query(
      'SELECT id, name, tags, at FROM t WHERE id = ANY($1::int[]) ORDER BY id',
      [[1, 2]],
    );
    expect(rows).toEqual([
      { id: 1, name: 'one', tags: ['a', "b'c"], at },
      { id: 2, name: null, tags: [], at: null },
    ]);
    expect((await driver.query('UPDATE t SET name = $1 WHERE id > $2', ['x', 0])).rowCount).toBe(2);
  });

  it('sends deferred statements with the COMMIT, and a failing one rolls the whole transaction back', async () => {
    await driver.query('DELETE FROM t');
    await driver.transaction(async (tx) => {
      tx.defer!('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'deferred']);
      await tx.query('INSERT INTO t (id, name) VALUES ($1, $2)', [2, 'queried']);
      tx.defer!('INSERT INTO t (id, name) VALUES ($1, $2)', [3, 'at commit']);
    });
    expect(await names()).toEqual(['deferred', 'queried', 'at commit']);
    const failing = driver.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, name) VALUES ($1, $2)', [4, 'lost']);
      tx.defer!('INSERT INTO t (id, name) VALUES ($1, $2)', [1, 'duplicate key']);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(await names()).toEqual(['deferred', 'queried', 'at commit']);
  });

  it('rolls back when the function throws, and the database serves the next caller', async () => {
    const thrown = driver.transaction(async (tx) => {
      await tx.query('UPDATE t SET name = $1', ['changed']);
      throw new Error('the caller gave up');
    });
    await expect(thrown).rejects.toThrow('the caller gave up');
    const invalid = driver.transaction(async (tx) => {
      await tx.query('SELECT $1::int AS n', ['not a number']);
    });
    await expect(invalid).rejects.toMatchObject({ code: '22P02' });
    expect(await names()).toEqual(['deferred', 'queried', 'at commit']);
    const result = await driver.transaction(
      async (tx) => (await tx.query('SELECT $1::int + 1 AS n', [41])).rows,
    );
    expect(result).toEqual([{ n: 42 }]);
  });

  it('runs more distinct statements than it keeps prepared, each answering its own', async () => {
    for (let i = 0; i < PGLITE_PREPARED_LIMIT + 20; i++) {
      const { rows } = await driver.query<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1]);
      expect(rows[0]!.n).toBe(i + 1);
    }
    const { rows } = await driver.query<{ n: number }>('SELECT $1::int + 0 AS n', [7]);
    expect(rows[0]!.n).toBe(7);
  });

  it('prepares again a statement whose result a change of the table altered', async () => {
    await driver.query('CREATE TABLE changing (a int)');
    await driver.query('INSERT INTO changing VALUES ($1)', [1]);
    const read = () => driver.query('SELECT * FROM changing WHERE a = $1', [1]);
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await driver.query('ALTER TABLE changing ADD COLUMN b text');
    const once = await read().then(
      (r) => r.rows,
      () => 'failed once',
    );
    expect([[{ a: 1, b: null }], 'failed once']).toContainEqual(once);
    expect((await read()).rows).toEqual([{ a: 1, b: null }]);
  });

  it('lets two drivers share a PGlite instance given to them, which stays open after both', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create('memory://');
    const first = await pgliteDriver(db);
    const second = await pgliteDriver(db);
    const sum = async (d: SqlDriver, n: number) =>
      (await d.query<{ n: number }>('SELECT $1::int + 1 AS n', [n])).rows[0]!.n;
    expect([await sum(first, 1), await sum(second, 2)]).toEqual([2, 3]);
    await first.close();
    expect(await sum(second, 3)).toBe(4);
    await second.close();
    expect(db.closed).toBe(false);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
    expect(rows).toEqual([{ n: 0 }]);
    await db.close();
  });
});
