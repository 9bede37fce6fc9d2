/**
 * `pnpm bench:postgres`: signed pushes per second through `core.handle` on real PostgreSQL against
 * the raw limit (node-postgres transactions doing the same row lock, upsert and event insert at the
 * same concurrency), and on embedded PGlite against the memory store, all in one run.
 *
 *   tsx bench/postgres/run.ts [--seconds 3] [--rounds 3] [--concurrency 16] [--pool 10] [--write]
 *
 * Each contender runs in this process with `concurrency` pushes in flight; contenders take turns in
 * slices, in a rotating order, after a warm-up slice each. Figures are medians over the slices.
 * DATABASE_URL (default: the local server) names the database; the run uses schemas of its own and
 * drops them at the end. `--write` records the table in bench/RESULTS.md.
 */
import { createMemoryStore } from '@latchkey/core';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { pgliteDriver } from '@latchkey/store-postgres/pglite';
import pg from 'pg';
import { benchArgs } from '../args.js';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { closedLoop, type LoopResult } from './closed-loop.js';
import { type Contender, corePushes, KEYS, rawPushes } from './contenders.js';

const args = benchArgs({ seconds: 3, rounds: 3, concurrency: 16, pool: 10 });
const { seconds, rounds, concurrency, pool: poolSize } = args;
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
/** core.handle against raw transactions whose event is not chained: the floor of a push without an audit log. */
const GOAL = 0.35;
/** Pre-signed pushes per second of a slice: more than any contender reaches here. */
const PER_SECOND = 12_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function slice(name: string, contender: Contender, length: number): Promise<LoopResult> {
  contender.prepare(Math.ceil(length * PER_SECOND));
  const result = await closedLoop((i) => contender.op(i), concurrency, length);
  process.stderr.write(
    `  ${name.padEnd(28)} ${result.opsPerSecond.toFixed(0).padStart(6)} pushes/s, p50 ${result.p50Ms.toFixed(1)} ms, errors ${result.errors}\n`,
  );
  return result;
}

/** Runs the contenders in turns and returns each one's medians. */
async function compare(contenders: Record<string, Contender>) {
  const names = Object.keys(contenders);
  const results = new Map<string, LoopResult[]>(names.map((n) => [n, []]));
  for (const name of names) await slice(`${name} (warm-up)`, contenders[name]!, 1);
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`round ${round + 1} of ${rounds}\n`);
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) results.get(name)!.push(await slice(name, contenders[name]!, seconds));
  }
  return new Map(
    names.map((name) => {
      const rs = results.get(name)!;
      return [
        name,
        {
          rps: median(rs.map((r) => r.opsPerSecond)),
          p50: median(rs.map((r) => r.p50Ms)),
          p99: median(rs.map((r) => r.p99Ms)),
          cpu: median(rs.map((r) => r.cpuUsPerOp)),
          errors: rs.reduce((sum, r) => sum + r.errors, 0),
        },
      ];
    }),
  );
}

const schemaOf = (what: string) => `bench_${what}_${process.pid}`;
const driver = await pgDriver({ connectionString: url, max: poolSize });
const pgStore = await createPostgresStore({ driver, schema: schemaOf('store') });
const rawPool = new pg.Pool({ connectionString: url, max: poolSize });
const pglite = await createPostgresStore({ driver: await pgliteDriver() });
const rows: string[] = [];
const notes: string[] = [];
try {
  process.stderr.write(`PostgreSQL: core.handle on @latchkey/store-postgres vs raw pg (pool ${poolSize})\n`);
  const onPostgres = await compare({
    'core.handle on PostgreSQL': await corePushes(pgStore),
    'raw pg, chained event': await rawPushes(rawPool, schemaOf('raw_chained'), true),
    'raw pg, plain event': await rawPushes(rawPool, schemaOf('raw_plain'), false),
  });
  process.stderr.write('Embedded: core.handle on PGlite vs on the memory store\n');
  const embedded = await compare({
    'core.handle on PGlite': await corePushes(pglite),
    'core.handle on memory': await corePushes(createMemoryStore()),
  });
  const row = (
    name: string,
    r: { rps: number; p50: number; p99: number; cpu: number; errors: number },
    ratio: string,
  ) =>
    `| ${name} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${Math.round(r.cpu)} | ${ratio} | ${r.errors} |`;
  const core = onPostgres.get('core.handle on PostgreSQL')!;
  const raw = onPostgres.get('raw pg, chained event')!;
  const plain = onPostgres.get('raw pg, plain event')!;
  const lite = embedded.get('core.handle on PGlite')!;
  const memory = embedded.get('core.handle on memory')!;
  const ratio = core.rps / plain.rps;
  rows.push(
    '| contender | pushes/s | p50 / p99 ms | CPU µs/push (Node) | ratio | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    row('core.handle on PostgreSQL', core, `${ratio.toFixed(2)}x of raw plain`),
    row('raw pg, chained event', raw, `${(raw.rps / plain.rps).toFixed(2)}x of raw plain`),
    row('raw pg, plain event (no chain)', plain, '1.00x'),
    row('core.handle on PGlite', lite, `${(lite.rps / memory.rps).toFixed(2)}x of memory`),
    row('core.handle on memory', memory, '1.00x'),
  );
  notes.push(
    `- PostgreSQL: core.handle / raw plain ${ratio.toFixed(2)}x ${ratio >= GOAL ? 'meets' : 'MISSES'} the ${GOAL}x goal (core.handle / raw chained ${(core.rps / raw.rps).toFixed(2)}x).`,
  );
} finally {
  await pgStore.close();
  await pglite.close();
  await rawPool.query(`DROP SCHEMA IF EXISTS "${schemaOf('store')}" CASCADE`);
  for (const raw of ['raw_chained', 'raw_plain'])
    await rawPool.query(`DROP SCHEMA IF EXISTS "${schemaOf(raw)}" CASCADE`);
  await rawPool.end();
}

const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}. PostgreSQL on the same machine.`,
  '',
  `\`pnpm bench:postgres\`: ${concurrency} pushes in flight from one process, pool of ${poolSize} connections for both PostgreSQL contenders (core.handle's driver keeps two more for seals). After a 1 s warm-up each, contenders take turns in ${seconds} s slices, ${rounds} rounds in a rotating order; figures are medians over the slices. A push sets one of ${KEYS} keys (no if_version, so each applies; concurrent pushes meet on a key now and then). Through core.handle a push is authenticated (token, member, organization, project, environment and signing device in one query, shared by the pushes that look up at the same moment), validated, its Ed25519 signature verified, its nonce consumed, the key's head locked and its pending event numbered (one statement, sent with BEGIN), the head written with its version row and its event stored as pending (one statement on its prepared generic plan, sent with COMMIT), in one transaction of two round trips; the push answers once a seal has put its event on the hash chain and the Merkle tree: one statement, no transaction, that writes the events of the pushes waiting for it after the chain head the process's last seal left, only if that head has not moved and the events are still pending (else the seal reads the head with every pending event and writes again). The raw contenders do only a row lock, an upsert and an event insert in one transaction: "chained" also appends the event to a hash chain as an audit log must (lock the organization's chain head, hash after it, insert, move the head), "plain" just inserts it. In the raw chained contender every push of one organization waits for the chain head, held until its commit is durable.`,
  '',
  ...rows,
  '',
  ...notes,
].join('\n');
publishResults(block, { id: 'postgres', heading: 'PostgreSQL store' }, args.write);
