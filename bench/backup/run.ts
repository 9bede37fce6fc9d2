/**
 * `pnpm bench:backup`: `latchkey backup create` of an organization with 100,000 secrets (each at
 * its own version) and 1,000,000 activity events on real PostgreSQL, served by `core` over HTTP on
 * loopback; the CLI runs as a user runs it (the built package, in a process of its own) and
 * reports its time and peak RSS. The age file is then decrypted with Debian's `age` tool and its
 * manifest checked against the seeded counts.
 *
 *   tsx bench/backup/run.ts [--secrets 100000] [--events 1000000] [--write]
 *
 * Goal: the CLI's peak RSS under 200 MB. `backup restore` is not measured yet (it does not exist).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { createCore } from '@latchkey/core';
import { createNodeHandler } from '@latchkey/core/node';
import { createPostgresStore, pgDriver, tablesOf } from '@latchkey/store-postgres';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import { seedEvents } from '../export/seed.js';
import { codeVersion, machine, publishResults } from '../push/report.js';

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
const core = createCore({ store });
await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
const server = createServer(createNodeHandler(core));
let measured: { code: number; seconds: number; peakRssMb: number } | undefined;
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
  await seedEvents([{ db: driver, schema }], organization.id, eventCount, join(dir, 'raw.ndjson'), (done) => {
    if (done % 250_000 === 0 || done === eventCount) log(`  ${done.toLocaleString('en-US')}`);
  });
  rmSync(join(dir, 'raw.ndjson'), { force: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identity = await generateIdentity();
  const recipient = await identityToRecipient(identity);
  const out = join(dir, 'acme.age');
  log('latchkey backup create…');
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./cli-child.mjs', import.meta.url)),
      'backup',
      'create',
      '--out',
      out,
      '--recipient',
      recipient,
    ],
    {
      env: {
        ...process.env,
        LATCHKEY_URL: base,
        LATCHKEY_TOKEN: TOKEN,
        LATCHKEY_ORG: 'acme',
        LATCHKEY_CONFIG_DIR: join(dir, 'cli'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  await new Promise((resolve) => child.on('exit', resolve));
  measured = JSON.parse(stdout.trim().split('\n').at(-1)!);
  if (measured!.code !== 0) throw new Error(`backup create exited ${measured!.code}:\n${stdout}`);
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
} finally {
  server.close();
  await driver.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

const block = [
  `Date: ${at.slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:backup\`: \`latchkey backup create --recipient age1…\` of one organization holding ${secretCount.toLocaleString('en-US')} secrets (10 environments, each key at its own version) and ${eventCount.toLocaleString('en-US')} activity events, served by \`core\` on real PostgreSQL over HTTP on loopback. The CLI is the built package in a process of its own, its resident memory sampled every 20 ms: it streams \`GET …/backup\` through a SHA-256 and record count into age's STREAM encryption and the file, never holding the content. The file is then decrypted with Debian's \`age\` tool and its manifest's counts checked against the seeded ones.`,
  '',
  '| operation | secrets | events | content MB | age file MB | seconds | CLI peak RSS MB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  `| backup create | ${secretCount.toLocaleString('en-US')} | ${eventCount.toLocaleString('en-US')} | ${(manifest!.bytes / 1_048_576).toFixed(0)} | ${fileMb.toFixed(0)} | ${measured!.seconds.toFixed(1)} | ${measured!.peakRssMb.toFixed(0)} |`,
  '',
  `- backup create: peak RSS ${measured!.peakRssMb.toFixed(0)} MB ${measured!.peakRssMb < GOAL_RSS_MB ? 'meets' : 'MISSES'} the ${GOAL_RSS_MB} MB goal.`,
  '- backup restore: not measured; the command does not exist yet.',
].join('\n');
publishResults(block, { id: 'backup', heading: 'Backup' }, args.write);
process.exit(0);
