/**
 * On PostgreSQL a restore is one transaction, and it holds only its own organization: while a large
 * one runs, the locks its connection holds, sampled from another, are row locks and the weak table
 * locks every insert and delete takes (which never wait for other organizations' statements nor
 * make them wait), never a stronger table lock and never an advisory lock.
 */
import { createCore, generateAuditKey, generateKeyringKey } from '@latchkey/core';
import {
  contentOf,
  LARGE_VERSIONS,
  linesOf,
  manifestOf,
  partsOf,
  withLargeHistory,
} from '@latchkey/test-utils';
import pg from 'pg';
import { expect, it } from 'vitest';
import { DATABASE_URL, onPostgres, postgresStore } from './databases.js';

const TOKEN = 'lk_store_postgres_restore_locks_token_00000';

/** Locks of the connection writing the schema's versions (the restore's): those that would hold others. */
const HOLDING = `
  WITH restorer AS (
    SELECT DISTINCT l.pid FROM pg_locks l
    JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relname = 'secret_versions' AND l.mode = 'RowExclusiveLock'
      AND l.pid <> pg_backend_pid()
  )
  SELECT r.pid, l.locktype, l.mode, c.relname FROM restorer r
  JOIN pg_locks l ON l.pid = r.pid LEFT JOIN pg_class c ON c.oid = l.relation
  WHERE l.locktype = 'advisory'
     OR (l.locktype = 'relation' AND l.mode NOT IN ('AccessShareLock', 'RowShareLock', 'RowExclusiveLock'))
  UNION ALL SELECT r.pid, 'seen', '', '' FROM restorer r`;

onPostgres('restore on PostgreSQL: locks', () => {
  it('a large restore locks only its own rows: no table lock past row-exclusive, no advisory lock', async () => {
    const store = await postgresStore();
    const audit = generateAuditKey();
    const core = createCore({
      store,
      auditKey: audit.privateKeyPem,
      keyring: `k1:${generateKeyringKey()}`,
    });
    const watcher = new pg.Client({ connectionString: DATABASE_URL });
    await watcher.connect();
    try {
      await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
      const send = (method: string, path: string, body?: unknown) =>
        core.handle({
          method,
          url: `/api/v2/organizations/acme${path}`,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const backup = await send('GET', '/backup');
      expect(backup.status).toBe(200);
      let text = '';
      for await (const chunk of backup.body as AsyncIterable<string | Uint8Array>) {
        text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      }
      const content = contentOf(withLargeHistory(linesOf(text)));
      const begun = await send('POST', '/restores', { manifest: manifestOf(content), force: true });
      expect(begun.status).toBe(201);
      const { id } = JSON.parse(begun.body as string) as { id: string };
      for (const [i, data] of partsOf(content).entries()) {
        expect((await send('PUT', `/restores/${id}/parts/${i}`, { data })).status).toBe(200);
      }

      let done = false;
      const commit = send('POST', `/restores/${id}/commit`).finally(() => {
        done = true;
      });
      const holding: unknown[] = [];
      let seen = 0;
      while (!done) {
        const { rows } = await watcher.query<{ locktype: string }>(HOLDING, [store.schema]);
        for (const row of rows) {
          if (row.locktype === 'seen') seen++;
          else holding.push(row);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const answer = await commit;
      expect(answer.status).toBe(200);
      const restored = JSON.parse(answer.body as string) as { restored: { secret_version: number } };
      expect(restored.restored.secret_version).toBe(LARGE_VERSIONS);
      // The samples caught the restore's transaction writing, and it held nothing others wait on.
      expect(seen).toBeGreaterThan(0);
      expect(holding).toEqual([]);
    } finally {
      await watcher.end();
      await store.close();
    }
  }, 120_000);
});
