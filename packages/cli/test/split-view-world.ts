/**
 * What the split-view test stands on: the Express example on a fresh PostgreSQL database with an
 * audit key of its own, an HTTPS receiver on loopback that keeps every delivery, the real CLI run
 * as one witness machine or another, and the operator's rewrite: with database access and the
 * audit key, an event's data is changed in the events table, every later event resealed into a
 * valid chain, and the Merkle tree rebuilt to match, so the rewritten log checks on its own.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActivityEvent, generateAuditKey, generateKeyringKey } from '@latchkey/core';
import type { ActivityDraft } from '@latchkey/core/client';
import { type ChainHead, sealEvent } from '@latchkey/core/store';
import { backfillTrees, type SqlDriver, tablesOf } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { CLI } from './cli-path.js';

export const DATABASE_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
export const TOKEN = 'lk_cli_split_view_admin_token_000000000000000';

/** Why PostgreSQL cannot be used here, or null. With CI=true its absence fails the run. */
export const postgresMissing = await (async () => {
  try {
    const driver = await pgDriver(DATABASE_URL);
    await driver.query('SELECT 1');
    await driver.close();
    return null;
  } catch (error) {
    if (process.env['CI'] === 'true')
      throw new Error(`PostgreSQL at DATABASE_URL is required in CI: ${(error as Error).message}`);
    const reason = `no PostgreSQL at DATABASE_URL (${(error as Error).message})`;
    console.warn(`Skipping the split-view test: ${reason}.`);
    return reason;
  }
})();

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The world: a server on a fresh database, a receiver, CLI machines and the operator's rewrite. */
export async function startSplitViewWorld() {
  const work = mkdtempSync(join(tmpdir(), 'latchkey-split-view-'));
  const name = `lk_split_view_${randomBytes(5).toString('hex')}`;
  const admin = await pgDriver(DATABASE_URL);
  await admin.query(`CREATE DATABASE "${name}"`);
  const databaseUrl = new URL(DATABASE_URL);
  databaseUrl.pathname = `/${name}`;
  const keyFile = join(work, 'audit-key.pem');
  const auditKey = generateAuditKey();
  writeFileSync(keyFile, auditKey.privateKeyPem, { mode: 0o600 });

  const received: string[] = [];
  const certificate = makeLoopbackCertificate(work);
  const receiver: Server = createServer(
    { key: certificate.key, cert: certificate.cert },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const server = await startExample(
    'express',
    {
      PORT: '0',
      LATCHKEY_STORE: databaseUrl.href,
      LATCHKEY_KEYRING: `k1:${generateKeyringKey()}`,
      LATCHKEY_AUDIT_KEY_FILE: keyFile,
      LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
      LATCHKEY_RETRY_SCHEDULE: '0,0.2',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
    },
    'bundle',
  );
  const db = await pgDriver(databaseUrl.href);

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  /** Runs the CLI as machine `machine` (its own configuration directory). */
  const cli = (machine: string, ...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        {
          cwd: work,
          env: {
            ...process.env,
            LATCHKEY_CONFIG_DIR: join(work, machine),
            LATCHKEY_URL: server.url,
            LATCHKEY_TOKEN: TOKEN,
            LATCHKEY_ORG: 'acme',
          },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  return {
    work,
    api,
    cli,
    received,
    publicKey: auditKey.publicKey,
    receiverUrl: `https://localhost:${(receiver.address() as AddressInfo).port}/events`,
    rewrite: (seq: number) => rewriteHistory(db, seq),
    async stop() {
      await stopExample(server.child, 'SIGKILL');
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.close();
    },
  };
}

/**
 * The operator's rewrite of acme's log from event `seq` on: its data changed, it and every later
 * event resealed (a valid chain), the chain head moved, and the tree dropped and rebuilt by the
 * store's own back-fill, all as someone holding the database and the audit key could.
 */
async function rewriteHistory(db: SqlDriver, seq: number): Promise<void> {
  const t = tablesOf('latchkey');
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ organization_id: string; body: string }>(
      `SELECT e.organization_id, e.body FROM ${t.events} e JOIN ${t.chains} c USING (organization_id)
        WHERE e.body::jsonb ->> 'organization' = 'acme' ORDER BY e.seq FOR UPDATE OF c`,
    );
    const organizationId = rows[0]!.organization_id;
    const events = rows.map((row) => JSON.parse(row.body) as ActivityEvent);
    let head: ChainHead = { seq: seq - 1, hash: events[seq - 2]?.hash ?? '0'.repeat(64) };
    for (const event of events.slice(seq - 1)) {
      const { seq: _seq, prev_hash: _prev, hash: _hash, ...draft } = event;
      const data = event.seq === seq ? { ...event.data, rewritten: true } : event.data;
      const sealed = sealEvent({ ...draft, data } as ActivityDraft, head);
      await tx.query(`UPDATE ${t.events} SET body = $3 WHERE organization_id = $1 AND seq = $2`, [
        organizationId,
        sealed.seq,
        JSON.stringify(sealed),
      ]);
      head = { seq: sealed.seq, hash: sealed.hash };
    }
    await tx.query(
      `UPDATE ${t.chains} SET hash = $2, tree_size = 0, tree_frontier = ''::bytea WHERE organization_id = $1`,
      [organizationId, head.hash],
    );
    await tx.query(`DELETE FROM ${t.treeNodes} WHERE organization_id = $1`, [organizationId]);
  });
  await backfillTrees(db, t);
}
