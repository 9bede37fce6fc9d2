/**
 * `pnpm bench:backup`: `latchkey backup create` of an organization with 100,000 secrets (each at
 * its own version) and 1,000,000 activity events on real PostgreSQL, served by `core` over HTTP on
 * loopback, then `latchkey backup restore` of that file into a fresh organization; the CLI runs as
 * a user runs it (the built package, in a process of its own) and reports its time and peak RSS.
 * The age file is decrypted with Debian's `age` tool and its manifest checked against the seeded
 * counts; the restored organization is counted in the database.
 *
 *   tsx bench/backup/run.ts [--secrets 100000] [--events 1000000] [--write]
 *
 * Goal: the CLI's peak RSS under 200 MB, for both.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createCore, generateAuditKey, generateKeyringKey } from '@latchkey/core';
import { createNodeHandler } from '@latchkey/core/node';
import { createPostgresStore, tablesOf } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { seedEvents } from '../export/seed.js';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { type CliMeasure, measureCli } from './measure-cli.js';

const { values: args } = parseArgs({
  options: {
    secrets: { type: 'string', default: '100000' },
    events: { type: 'string', default: '1000000' },
    write: { type: 'boolean', default: false },
  },
});
const secretCount = Number(args.secrets);
const eventCount = Number(args.events);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const dir = mkdtempSync(join(tmpdir(), 'latchkey-bench-backup-'));
const schema = `bench_backup_${process.pid}`;
const TOKEN = 'lk_bench_backup_admin_token_0000000000000000';
const GOAL_RSS_MB = 200;
const ENVIRONMENTS = 10;
const log = (message: string) => process.stderr.write(`${message}\n`);
const at = new Date().toISOString();

log('building the CLI and the packages it needs…');
await promisify(execFile)('npx', ['--yes', 'pnpm@10.34.8', '--filter', '@latchkey/cli...', 'run', 'build'], {
  maxBuffer: 16 << 20,
});
const driver = await pgDriver(url);
const store = await createPostgresStore({ driver, schema });
// A keyring, as a real deployment has: restore seals every value and every staged part with it.
// An audit key too: a backup carries the signed checkpoint restore takes its history in under.
const core = createCore({
  store,
  allowOrganizationCreation: true,
  auditKey: generateAuditKey().privateKeyPem,
  keyring: { current: 'k1', keys: { k1: generateKeyringKey() } },
});
await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
const server = createServer(createNodeHandler(core));
let measured: CliMeasure | undefined;
let restored: CliMeasure | undefined;
let restoredCounts = { secrets: 0, events: 0 };
let fileMb = 0;
let manifest: { bytes: number; counts: Record<string, number> } | undefined;
try {
  const organization = (await store.organizations.getBySlug('acme'))!;
  const t = tablesOf(schema);
  await core.handle({
    method: 'POST',
    url: '/api/v2/organizations/acme/projects',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'web' }),
  });
  const project = (await store.projects.get(organization.id, 'web'))!;
  log(`seeding ${secretCount.toLocaleString('en-US')} secrets over ${ENVIRONMENTS} environments…`);
  for (let e = 0; e < ENVIRONMENTS; e++) {
    const id = `env_bench${String(e).padStart(19, '0')}`;
    await driver.query(
      `INSERT INTO ${t.environments} (id, organization_id, project_id, slug, require_strict_conflict_mode, created_at) VALUES ($1, $2, $3, $4, false, $5)`,
      [id, organization.id, project.id, `env-${e}`, at],
    );
    const keys = Array.from({ length: secretCount / ENVIRONMENTS }, (_, i) => `KEY_${i}`);
    await driver.query(
      `INSERT INTO ${t.secrets} (environment_id, key, version, deleted, value, updated_at)
       SELECT $1, k, v, false, 'value-of-' || k || '-' || repeat('x', 24), $2 FROM unnest($3::text[], $4::int[]) AS s(k, v)`,
      [id, at, keys, keys.map((_, i) => (i % 7) + 1)],
    );
  }
  log(`seeding ${eventCount.toLocaleString('en-US')} events…`);
  // The chain the bootstrap and project creation began is replaced by the seeded one.
  await driver.query(`DELETE FROM ${t.events} WHERE organization_id = $1`, [organization.id]);
  await seedEvents(
    [{ store, db: driver, schema }],
    organization.id,
    eventCount,
    join(dir, 'raw.ndjson'),
    (done) => {
      if (done % 250_000 === 0 || done === eventCount) log(`  ${done.toLocaleString('en-US')}`);
    },
  );
  rmSync(join(dir, 'raw.ndjson'), { force: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identity = await generateIdentity();
  const recipient = await identityToRecipient(identity);
  const out = join(dir, 'acme.age');
  log('latchkey backup create…');
  const cliEnv = { LATCHKEY_URL: base, LATCHKEY_TOKEN: TOKEN, LATCHKEY_CONFIG_DIR: join(dir, 'cli') };
  measured = await measureCli(['backup', 'create', '--out', out, '--recipient', recipient], {
    ...cliEnv,
    LATCHKEY_ORG: 'acme',
  });
  fileMb = statSync(out).size / 1_048_576;
  log('checking the file with age -d…');
  writeFileSync(join(dir, 'identity.txt'), `${identity}\n`, { mode: 0o600 });
  const { stdout: last } = await promisify(execFile)(
    'sh',
    ['-c', `age -d -i "${join(dir, 'identity.txt')}" "${out}" | tail -n 1`],
    { maxBuffer: 1 << 20 },
  );
  manifest = JSON.parse(last);
  if (manifest!.counts['secret'] !== secretCount || manifest!.counts['event'] !== eventCount) {
    throw new Error(`the manifest counts ${JSON.stringify(manifest!.counts)}, not the seeded ones`);
  }
  log('latchkey backup restore into a fresh organization…');
  const created = await core.handle({
    method: 'POST',
    url: '/api/v2/organizations',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'acme-restored' }),
  });
  const restoredToken = (JSON.parse(created.body as string) as { token: string }).token;
  restored = await measureCli(['backup', 'restore', out, '--identity', join(dir, 'identity.txt')], {
    ...cliEnv,
    LATCHKEY_TOKEN: restoredToken,
    LATCHKEY_ORG: 'acme-restored',
  });
  const target = (await store.organizations.getBySlug('acme-restored'))!;
  const count = async (sql: string) =>
    Number((await driver.query<{ n: unknown }>(sql, [target.id])).rows[0]!.n);
  restoredCounts = {
    secrets: await count(
      `SELECT count(*) AS n FROM ${t.secrets} s JOIN ${t.environments} e ON e.id = s.environment_id WHERE e.organization_id = $1`,
    ),
    events: await count(`SELECT count(*) AS n FROM ${t.events} WHERE organization_id = $1`),
  };
  // Every secret, and every event plus backup_restored.
  if (restoredCounts.secrets !== secretCount || restoredCounts.events !== eventCount + 1) {
    throw new Error(`the restored organization holds ${JSON.stringify(restoredCounts)}`);
  }
} finally {
  server.close();
  await driver.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

const block = [
  `Date: ${at.slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:backup\`: \`latchkey backup create --recipient age1…\` of one organization holding ${secretCount.toLocaleString('en-US')} secrets (10 environments, each key at its own version) and ${eventCount.toLocaleString('en-US')} activity events, served by \`core\` on real PostgreSQL over HTTP on loopback. The CLI is the built package in a process of its own, its resident memory sampled every 20 ms: it streams \`GET …/backup\` through a SHA-256 and record count into age's STREAM encryption and the file, never holding the content. The file is then decrypted with Debian's \`age\` tool and its manifest's counts checked against the seeded ones. \`latchkey backup restore --identity …\` then restores the file into a fresh organization of the same server (the events column counts what it then holds).`,
  '',
  '| operation | secrets | events | content MB | age file MB | seconds | CLI peak RSS MB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  `| backup create | ${secretCount.toLocaleString('en-US')} | ${eventCount.toLocaleString('en-US')} | ${(manifest!.bytes / 1_048_576).toFixed(0)} | ${fileMb.toFixed(0)} | ${measured!.seconds.toFixed(1)} | ${measured!.peakRssMb.toFixed(0)} |`,
  `| backup restore | ${restoredCounts.secrets.toLocaleString('en-US')} | ${restoredCounts.events.toLocaleString('en-US')} | ${(manifest!.bytes / 1_048_576).toFixed(0)} | ${fileMb.toFixed(0)} | ${restored!.seconds.toFixed(1)} | ${restored!.peakRssMb.toFixed(0)} |`,
  '',
  `- backup create: peak RSS ${measured!.peakRssMb.toFixed(0)} MB ${measured!.peakRssMb < GOAL_RSS_MB ? 'meets' : 'MISSES'} the ${GOAL_RSS_MB} MB goal.`,
  `- backup restore: peak RSS ${restored!.peakRssMb.toFixed(0)} MB ${restored!.peakRssMb < GOAL_RSS_MB ? 'meets' : 'MISSES'} the ${GOAL_RSS_MB} MB goal. Its time covers both passes over the file (decrypt and check against the manifest, then decrypt and send in parts of under 1 MB) and the server's commit, which checks the whole again (every line, the chain) before it replaces the organization's content in one transaction. The restored organization is counted in the database: every secret, and every event plus \`backup_restored\`.`,
].join('\n');
publishResults(block, { id: 'backup', heading: 'Backup' }, args.write);
process.exit(0);
