/**
 * What is measured: signed pushes through `core.handle` on a store, and, as the raw limit, a bare
 * node-postgres transaction doing the same row lock, upsert and event insert.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type Core, createCore, generateDeviceKeyPair, type LatchkeyStore, signPush } from '@latchkey/core';
import type { Pool } from 'pg';

const TOKEN = 'lk_bench_postgres_admin_token_000000000000000';
const ENV_PATH = '/api/v2/organizations/acme/projects/web/environments/prod';
const ADDRESS = { organization: 'acme', project: 'web', environment: 'prod' };
/** Pushes cycle over this many keys, so concurrent pushes sometimes meet on a key, as in real use. */
export const KEYS = 64;

/** A push operation and what it needs before the clock starts. */
export interface Contender {
  /** Pre-signs `count` pushes (signing is the client's cost, outside the timed phase). */
  prepare(count: number): void;
  op(i: number): Promise<boolean>;
}

/** Signed pushes of one key each (no if_version: each applies) through `core.handle` on `store`. */
export async function corePushes(store: LatchkeyStore): Promise<Contender> {
  const core: Core = createCore({ store });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const post = (url: string, body: unknown) =>
    core.handle({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  await post('/api/v2/organizations/acme/projects', { slug: 'web' });
  await post('/api/v2/organizations/acme/projects/web/environments', { slug: 'prod' });
  const keys = generateDeviceKeyPair();
  const enrolled = await post('/api/v2/organizations/acme/devices', {
    name: 'bench',
    public_key: keys.publicKey,
  });
  const deviceId = (JSON.parse(enrolled.body as string) as { id: string }).id;
  let bodies: string[] = [];
  return {
    prepare(count) {
      bodies = Array.from({ length: count }, (_, i) =>
        JSON.stringify(
          signPush(
            { device_id: deviceId, changes: [{ key: `KEY_${i % KEYS}`, value: `value-${i}` }] },
            ADDRESS,
            keys.privateKey,
          ),
        ),
      );
    },
    async op(i) {
      const body = bodies[i];
      if (body === undefined) throw new Error('ran out of pre-signed pushes');
      return (await post(`${ENV_PATH}/push`, body)).status === 200;
    },
  };
}

/**
 * The raw limit: per push one transaction on a pool of the same size that locks the key's row
 * (`SELECT … FOR UPDATE`), upserts its new version (`INSERT … ON CONFLICT DO UPDATE`) and inserts
 * an event row. `chained` also appends the event to a hash chain the way an audit log must: lock
 * the organization's chain head, hash the event after it, insert it and move the head. No
 * authentication, signature, nonce or validation.
 */
export async function rawPushes(pool: Pool, schema: string, chained: boolean): Promise<Contender> {
  const q = `"${schema}"`;
  await pool.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
  await pool.query(`CREATE SCHEMA ${q}`);
  await pool.query(
    `CREATE TABLE ${q}.heads (environment_id text, key text, version int NOT NULL, value text, updated_at timestamptz NOT NULL, PRIMARY KEY (environment_id, key))`,
  );
  await pool.query(
    `CREATE TABLE ${q}.events (organization_id text NOT NULL, seq bigint NOT NULL, id text NOT NULL UNIQUE, type text NOT NULL, occurred_at timestamptz NOT NULL, body text NOT NULL, PRIMARY KEY (organization_id, seq))`,
  );
  await pool.query(
    `CREATE TABLE ${q}.chains (organization_id text PRIMARY KEY, seq bigint NOT NULL, hash text NOT NULL)`,
  );
  await pool.query(`INSERT INTO ${q}.chains VALUES ('org', 0, '')`);
  let unchainedSeq = 0;
  return {
    prepare() {},
    async op(i) {
      const client = await pool.connect();
      try {
        const key = `KEY_${i % KEYS}`;
        await client.query('BEGIN');
        await client.query(
          `SELECT version FROM ${q}.heads WHERE environment_id = $1 AND key = $2 FOR UPDATE`,
          ['env', key],
        );
        const { rows } = await client.query(
          `INSERT INTO ${q}.heads AS h (environment_id, key, version, value, updated_at) VALUES ($1, $2, 1, $3, now())
           ON CONFLICT (environment_id, key) DO UPDATE SET version = h.version + 1, value = EXCLUDED.value, updated_at = now()
           RETURNING version`,
          ['env', key, `value-${i}`],
        );
        const event = {
          id: randomUUID(),
          type: 'push_applied',
          versions: [{ key, version: rows[0].version }],
        };
        let seq = ++unchainedSeq;
        if (chained) {
          const head = await client.query(
            `SELECT seq, hash FROM ${q}.chains WHERE organization_id = 'org' FOR UPDATE`,
          );
          seq = Number(head.rows[0].seq) + 1;
          const hash = createHash('sha256')
            .update(head.rows[0].hash)
            .update(JSON.stringify(event))
            .digest('hex');
          await client.query(
            `WITH e AS (INSERT INTO ${q}.events (organization_id, seq, id, type, occurred_at, body) VALUES ('org', $1, $2, $3, now(), $4))
             UPDATE ${q}.chains SET seq = $1, hash = $5 WHERE organization_id = 'org'`,
            [seq, event.id, event.type, JSON.stringify(event), hash],
          );
        } else {
          await client.query(
            `INSERT INTO ${q}.events (organization_id, seq, id, type, occurred_at, body) VALUES ('org', $1, $2, $3, now(), $4)`,
            [seq, event.id, event.type, JSON.stringify(event)],
          );
        }
        await client.query('COMMIT');
        return true;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
