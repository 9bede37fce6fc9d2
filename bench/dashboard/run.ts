/**
 * `pnpm bench:dashboard`: how soon the Activity page shows its first screen of 50 events with a
 * million events in the log. Seeds organization `acme` of a PostgreSQL database to `--events`
 * (resumable: the database and its keyring are kept, so a second run continues the seed or skips
 * it), starts the Express example on it, signs in in Debian's Chromium (playwright-core), and
 * opens `/dashboard/activity` `--runs` times, reading in the page the time from the navigation's
 * start to the 50th row in the DOM (Performance API: `performance.now()` in a MutationObserver),
 * and the history request's own time (Resource Timing); then one Verify over the whole log.
 *
 *   tsx bench/dashboard/run.ts [--events 1000000] [--runs 7] [--write] [--drop]
 *
 * DATABASE_URL (default the local server) names the server; the run uses database
 * `lk_bench_activity` on it and `latchkey-bench-activity/` in the temporary directory for its
 * keyring and audit key. `--drop` removes both at the end; `--write` records the table in
 * bench/RESULTS.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateAuditKey, generateKeyringKey } from '@latchkey/core';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { chromium } from 'playwright-core';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { measureFirstScreen } from './first-screen.js';
import { seedUpTo } from './seed.js';
import { measureVerify } from './verify-time.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '7' },
    write: { type: 'boolean', default: false },
    drop: { type: 'boolean', default: false },
  },
});
const count = Number(args.events);
const DATABASE_URL = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const NAME = 'lk_bench_activity';
const TOKEN = 'lk_bench_activity_admin_token_000000000000000';
const dir = join(tmpdir(), 'latchkey-bench-activity');
const log = (message: string) => process.stderr.write(`${message}\n`);

/** The keyring and audit key of the benchmark's database, made once and kept beside it. */
function secrets() {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyring = join(dir, 'keyring.txt');
  const auditKey = join(dir, 'audit-key.pem');
  if (!existsSync(keyring)) writeFileSync(keyring, `k1:${generateKeyringKey()}`, { mode: 0o600 });
  if (!existsSync(auditKey)) writeFileSync(auditKey, generateAuditKey().privateKeyPem, { mode: 0o600 });
  return { keyring: readFileSync(keyring, 'utf8'), auditKeyFile: auditKey };
}

const admin = await pgDriver(DATABASE_URL);
const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [NAME]);
if (exists.rows.length === 0) await admin.query(`CREATE DATABASE "${NAME}"`);
const url = new URL(DATABASE_URL);
url.pathname = `/${NAME}`;
const { keyring, auditKeyFile } = secrets();
const server = await startExample('express', {
  PORT: '0',
  LATCHKEY_STORE: url.href,
  LATCHKEY_KEYRING: keyring,
  LATCHKEY_AUDIT_KEY_FILE: auditKeyFile,
  LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
});
const db = await pgDriver(url.href);
/** Seeds (or resumes the seed), then measures; the server and connections are closed either way. */
async function seedAndMeasure() {
  try {
    const began = Date.now();
    let shown = 0;
    const head = await seedUpTo(db, count, (seq) => {
      if (seq - shown >= 50_000 || seq >= count) {
        shown = seq;
        log(
          `  seeded up to seq ${seq.toLocaleString('en-US')} (${((Date.now() - began) / 1000).toFixed(0)} s)`,
        );
      }
    });
    log(`chain of acme at seq ${head.seq.toLocaleString('en-US')}`);
    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    });
    try {
      const runs = await measureFirstScreen(browser, server.url, TOKEN, Number(args.runs));
      return { head, runs, verified: await measureVerify(browser, server.url, TOKEN) };
    } finally {
      await browser.close();
    }
  } finally {
    await stopExample(server.child, 'SIGKILL');
    await db.close();
  }
}
const { head, runs, verified } = await seedAndMeasure();
if (args.drop) {
  await admin.query(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
}
await admin.close();

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const sorted = (key: 'firstScreen' | 'history') => runs.map((r) => r[key]).sort((a, b) => a - b);
const median = (values: number[]) => values[values.length >> 1]!;
const rows = runs.map((r, i) => `| ${i + 1} | ${ms(r.firstScreen)} | ${ms(r.history)} | ${r.rows} |`);
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL and Chromium on the same machine.`,
  `Log: ${head.seq.toLocaleString('en-US')} events in organization acme. Goal: first screen within 1 s of navigation (measured, not asserted).`,
  '',
  '| run | navigation to 50th row | history request | rows |',
  '| --- | ---: | ---: | ---: |',
  ...rows,
  `| median | ${ms(median(sorted('firstScreen')))} | ${ms(median(sorted('history')))} | |`,
  '',
  `Verify over the whole log in the browser (export streamed and walked with WebCrypto, checkpoint checked): ${(verified.ms / 1000).toFixed(1)} s, "${verified.verdict}".`,
].join('\n');
publishResults(block, { id: 'dashboard-activity', heading: 'Dashboard: Activity first screen' }, args.write);
