/**
 * Workload identity benchmark: the token exchange with the issuer's keys cached, and pushes with a
 * workload token beside pushes with a member's token, through `core.handle` on the memory store and
 * on the PostgreSQL store (the server at DATABASE_URL, default the local one, in a schema of its
 * own dropped at the end), all interleaved in one run (the loopback issuer is only reached for each
 * store's first exchange's keys). Each exchange brings a new public key, as each CI job does (its
 * strict check is paid per key), made beforehand, outside the timed region. Beside the exchange on
 * PostgreSQL, bare transactions of as many inserts on the same server: the raw limit
 * (`bare-transaction.ts`).
 *
 *   pnpm bench:workload --count 300 [--no-postgres]
 *   (the same: npx tsx --conditions=@latchkey/source bench/workload/run.ts --count 300)
 */
import { parseArgs } from 'node:util';
import {
  createCore,
  createMemoryStore,
  generateDeviceKeyPair,
  type LatchkeyStore,
  signPush,
} from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { startTestIssuer, type TestIssuer } from '@latchkey/test-utils/oidc-issuer';
import pg from 'pg';
import { bareTransactions, EXCHANGE_WRITES } from './bare-transaction.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '300' }, 'no-postgres': { type: 'boolean', default: false } },
});
const count = Number(values.count);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_workload_${process.pid}`;
const ADMIN = 'lk_bench_workload_admin_token_00000000000000';
const address = { organization: 'acme', project: 'web', environment: 'prod' };
const pushPath = '/api/v2/organizations/acme/projects/web/environments/prod/push';
const keys = generateDeviceKeyPair();

/** A core on `store` with a project, a workload identity and an enrolled member device. */
async function setUp(store: LatchkeyStore, issuer: TestIssuer) {
  const core = createCore({
    store,
    trustedIssuers: [{ issuer: issuer.issuer, ca: issuer.ca }],
    logger: { error: () => undefined },
  });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: ADMIN });
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const response = await core.handle({
      method,
      url: path,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: JSON.parse(response.body as string) };
  };
  await call('POST', '/api/v2/organizations/acme/projects', { slug: 'web' }, ADMIN);
  await call('POST', '/api/v2/organizations/acme/projects/web/environments', { slug: 'prod' }, ADMIN);
  const identity = {
    name: 'ci',
    issuer: issuer.issuer,
    audience: 'bench',
    subject: 'repo:acme/web',
    claims: { repository_id: '1' },
    grants: [{ project: 'web', environments: ['prod'] }],
    actions: ['secrets:read', 'secrets:push'],
  };
  await call('POST', '/api/v2/organizations/acme/workload-identities', identity, ADMIN);
  const exchange = async (idToken: string, publicKey = keys.publicKey) => {
    const body = { organization: 'acme', identity: 'ci', id_token: idToken, public_key: publicKey };
    const answer = await call('POST', '/api/v2/workload-tokens', body);
    if (answer.status !== 201) throw new Error(`exchange: ${JSON.stringify(answer.json)}`);
    return answer.json as { token: string; device_id: string };
  };
  const workload = await exchange(await issuer.sign(claims()));
  const member = await call(
    'POST',
    '/api/v2/organizations/acme/devices',
    { name: 'bench', public_key: keys.publicKey },
    ADMIN,
  );
  const devices = { workload: workload.device_id, member: (member.json as { id: string }).id };
  const tokens = { workload: workload.token, member: ADMIN };
  const versions = { workload: 0, member: 0 };
  /** One strict push of the principal's own key; its time in ms (signing is the client's, outside it). */
  const push = async (who: 'workload' | 'member', i: number) => {
    const change = { key: `K_${who.toUpperCase()}`, value: `v${i}`, if_version: versions[who] };
    const body = signPush(
      { device_id: devices[who], changes: [change], conflict_mode: 'strict' },
      address,
      keys.privateKey,
    );
    const began = performance.now();
    const answer = await call('POST', pushPath, body, tokens[who]);
    const ms = performance.now() - began;
    if (answer.status !== 200) throw new Error(`push: ${JSON.stringify(answer.json)}`);
    versions[who]++;
    return ms;
  };
  return { exchange, push };
}

function claims() {
  const now = Math.floor(Date.now() / 1000);
  return { aud: 'bench', sub: 'repo:acme/web', repository_id: '1', iat: now, exp: now + 300 };
}

const issuer = await startTestIssuer('localhost');
const stores: Record<string, LatchkeyStore> = { memory: createMemoryStore() };
if (!values['no-postgres']) {
  stores['PostgreSQL'] = await createPostgresStore({
    driver: await pgDriver({ connectionString: url }),
    schema,
  });
}
const bare = stores['PostgreSQL'] ? await bareTransactions(url, schema) : null;
const timings: Record<string, number[]> = {};
const bareRows = bare
  ? ([
      [`PostgreSQL|bare transaction: ${EXCHANGE_WRITES} inserts one by one + COMMIT`, bare.oneByOne],
      [`PostgreSQL|bare transaction: ${EXCHANGE_WRITES} inserts pipelined + COMMIT`, bare.pipelined],
    ] as const)
  : [];

const time = (name: string, ms: number) => {
  timings[name] ??= [];
  timings[name]!.push(ms);
};
try {
  const set = Object.entries(stores);
  const cores = await Promise.all(
    set.map(async ([name, store]) => [name, await setUp(store, issuer)] as const),
  );
  const fetchesAfterFirst = { ...issuer.fetches };
  const idTokens = await Promise.all(
    Array.from({ length: count * cores.length }, () => issuer.sign(claims())),
  );
  const publicKeys = Array.from({ length: count * cores.length }, () => generateDeviceKeyPair().publicKey);
  for (let i = 0; i < count; i++) {
    for (const [name, core] of i % 2 === 0 ? cores : [...cores].reverse()) {
      const [idToken, publicKey] = [idTokens.pop()!, publicKeys.pop()!];
      const began = performance.now();
      await core.exchange(idToken, publicKey);
      time(`${name}|exchange, keys cached, a new key`, performance.now() - began);
    }
    for (const [row, run] of i % 2 === 0 ? bareRows : [...bareRows].reverse()) {
      const began = performance.now();
      await run();
      time(row, performance.now() - began);
    }
  }
  if (issuer.fetches.jwks !== fetchesAfterFirst.jwks) throw new Error('the keys were fetched again');
  for (let i = 0; i < count * 2; i++) {
    const who = i % 2 === 0 ? 'workload' : 'member';
    for (const [name, core] of i % 4 < 2 ? cores : [...cores].reverse()) {
      time(`${name}|strict push, ${who} token`, await core.push(who, i));
    }
  }
} finally {
  await issuer.close();
  await bare?.close();
  for (const store of Object.values(stores)) await (store as { close?: () => Promise<void> }).close?.();
  if (stores['PostgreSQL']) {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log('| store | what (core.handle) | count | p50 ms | p95 ms | mean ms |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const [key, xs] of Object.entries(timings)) {
  const [store, what] = key.split('|');
  console.log(
    `| ${store} | ${what} | ${xs.length} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 95).toFixed(2)} | ${mean(xs).toFixed(2)} |`,
  );
}
for (const store of Object.keys(stores)) {
  const exchange = pct(timings[`${store}|exchange, keys cached, a new key`]!, 50);
  console.log(
    `- ${store}: an exchange with cached keys, p50 ${exchange.toFixed(2)} ms (goal <= 5 ms: ${exchange <= 5 ? 'met' : 'not met'}).`,
  );
  if (store === 'PostgreSQL' && bare) {
    const raw = pct(timings[bareRows[1]![0]]!, 50);
    console.log(
      `- PostgreSQL: its raw limit, a bare transaction of ${EXCHANGE_WRITES} pipelined inserts + COMMIT, p50 ${raw.toFixed(2)} ms; the exchange is ${(exchange / raw).toFixed(2)}x of it.`,
    );
  }
  const w = timings[`${store}|strict push, workload token`]!;
  const m = timings[`${store}|strict push, member token`]!;
  console.log(
    `- ${store}: a workload push / a member push ${(pct(w, 50) / pct(m, 50)).toFixed(2)}x at p50, ${(mean(w) / mean(m)).toFixed(2)}x in the mean.`,
  );
}
