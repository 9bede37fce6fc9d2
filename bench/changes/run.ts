/**
 * `pnpm bench:changes`: what applying an approved change request costs against a plain push of the
 * same keys, both through `core.handle` on real PostgreSQL, side by side in one run.
 *
 *   tsx bench/changes/run.ts [--keys 5] [--ops 200] [--rounds 3] [--write]
 *
 * Before the clock starts, each round proposes and approves `ops` change requests (each written at
 * the version the one before it leaves) and pre-signs `ops` strict pushes of the same keys to an
 * environment without a policy. Then push and apply alternate, one at a time, so whatever else the
 * machine does falls on both alike. Figures are medians over the rounds of each round's mean and
 * p50; the goal is an apply at most 1.2x a push. DATABASE_URL (default: the local server) names the
 * database; the run uses a schema of its own and drops it at the end. `--write` records the table in
 * bench/RESULTS.md.
 */
import { performance } from 'node:perf_hooks';
import { createCore, generateDeviceKeyPair, signChangeRequest, signPush } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import pg from 'pg';
import { benchArgs } from '../args.js';
import { coreCaller } from '../core-call.js';
import { codeVersion, machine, publishResults } from '../push/report.js';

const args = benchArgs({ keys: 5, ops: 200, rounds: 3 });
const KEYS = args.keys;
const OPS = args.ops;
const ROUNDS = args.rounds;
const GOAL = 1.2;
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_changes_${process.pid}`;
const TOKEN = 'lk_bench_changes_owner_token_0000000000000000';
const PROJECT = '/api/v2/organizations/acme/projects/web';
const address = (environment: string) => ({ organization: 'acme', project: 'web', environment });

const driver = await pgDriver({ connectionString: url, max: 10 });
const store = await createPostgresStore({ driver, schema });
const core = createCore({ store, limits: { openChangeRequestsPerEnvironment: 100_000 } });
await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
const owner = coreCaller(core, TOKEN);
await owner('POST', '/api/v2/organizations/acme/projects', { slug: 'web' });
for (const slug of ['plain', 'guarded']) await owner('POST', `${PROJECT}/environments`, { slug });
await owner('PATCH', `${PROJECT}/environments/guarded`, { approval_policy: { required_approvals: 1 } });
await owner('POST', '/api/v2/organizations/acme/members', { user: 'reviewer', role: 'admin' });
const reviewerToken = JSON.parse(
  (await owner('POST', '/api/v2/organizations/acme/tokens', { user: 'reviewer', name: 'bench' }))
    .body as string,
).token as string;
const reviewer = coreCaller(core, reviewerToken);
const keys = generateDeviceKeyPair();
const device = JSON.parse(
  (await owner('POST', '/api/v2/organizations/acme/devices', { name: 'bench', public_key: keys.publicKey }))
    .body as string,
).id as string;
const changes = (round: number, i: number, version: number) =>
  Array.from({ length: KEYS }, (_, k) => ({
    key: `KEY_${k}`,
    value: `r${round}-${i}-${k}`,
    if_version: version,
  }));

/** One round's prepared work: pushes signed, requests made and approved. */
async function prepare(round: number) {
  const base = round * OPS;
  const pushes = Array.from({ length: OPS }, (_, i) =>
    JSON.stringify(
      signPush(
        { device_id: device, conflict_mode: 'strict', changes: changes(round, i, base + i) },
        address('plain'),
        keys.privateKey,
      ),
    ),
  );
  const requests: string[] = [];
  for (let i = 0; i < OPS; i++) {
    const body = signChangeRequest(
      { device_id: device, title: `bench ${round}/${i}`, changes: changes(round, i, base + i) },
      address('guarded'),
      keys.privateKey,
    );
    const made = JSON.parse(
      (await owner('POST', `${PROJECT}/environments/guarded/change-requests`, body)).body as string,
    );
    const id = made.change_request.id as string;
    await reviewer('POST', `${PROJECT}/environments/guarded/change-requests/${id}/approve`, {});
    requests.push(id);
  }
  return { pushes, requests };
}

const post = (url: string, body?: string) =>
  core.handle({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
  });

async function timed(run: () => Promise<{ status: number; body: unknown }>): Promise<number> {
  const start = performance.now();
  const response = await run();
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`${response.status} ${String(response.body)}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const results = {
  push: { mean: [] as number[], p50: [] as number[] },
  apply: { mean: [] as number[], p50: [] as number[] },
};
try {
  for (let round = 0; round < ROUNDS; round++) {
    const { pushes, requests } = await prepare(round);
    const times = { push: [] as number[], apply: [] as number[] };
    for (let i = 0; i < OPS; i++) {
      const pushFirst = i % 2 === 0;
      const push = () => timed(() => post(`${PROJECT}/environments/plain/push`, pushes[i]));
      const apply = () =>
        timed(() => post(`${PROJECT}/environments/guarded/change-requests/${requests[i]}/apply`));
      if (pushFirst) {
        times.push.push(await push());
        times.apply.push(await apply());
      } else {
        times.apply.push(await apply());
        times.push.push(await push());
      }
    }
    for (const kind of ['push', 'apply'] as const) {
      // The first tenth warms the statements' plans and the JIT; it is left out.
      const kept = times[kind].slice(Math.floor(OPS / 10));
      results[kind].mean.push(mean(kept));
      results[kind].p50.push(median(kept));
    }
    process.stderr.write(
      `round ${round + 1}: push ${mean(times.push).toFixed(2)} ms, apply ${mean(times.apply).toFixed(2)} ms (means)\n`,
    );
  }
} finally {
  await store.close();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}

const push = { mean: median(results.push.mean), p50: median(results.push.p50) };
const apply = { mean: median(results.apply.mean), p50: median(results.apply.p50) };
const ratio = apply.mean / push.mean;
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:changes\`: a strict push of ${KEYS} keys to an environment without a policy against the apply of an approved change request of the same ${KEYS} keys (its request made and approved before the clock starts), both through core.handle on PostgreSQL, one at a time, alternating, ${OPS} of each per round, ${ROUNDS} rounds (the first tenth of each round left out as warm-up); figures are medians over the rounds.`,
  '',
  '| operation | mean ms | p50 ms | ratio (mean) |',
  '| --- | ---: | ---: | ---: |',
  `| plain push | ${push.mean.toFixed(2)} | ${push.p50.toFixed(2)} | 1.00x |`,
  `| apply of a change request | ${apply.mean.toFixed(2)} | ${apply.p50.toFixed(2)} | ${ratio.toFixed(2)}x |`,
  '',
  `- apply / push ${ratio.toFixed(2)}x ${ratio <= GOAL ? 'meets' : 'MISSES'} the ${GOAL}x goal (p50 ${(apply.p50 / push.p50).toFixed(2)}x).`,
].join('\n');
publishResults(block, { id: 'changes', heading: 'Change requests: apply against a plain push' }, args.write);
