/**
 * `pnpm bench:proofs`: inclusion and consistency proofs of an organization's Merkle tree on real
 * PostgreSQL, at 1,000, 1,000,000 and 10,000,000 events, as the proof routes make them (the tree
 * head from the chain row, then every stored node the proof needs in one indexed read).
 *
 *   tsx bench/proofs/run.ts [--sizes 1000,1000000,10000000] [--proofs 300] [--write]
 *
 * Goal: the time of a proof at 10M within 2x of the time at 1k. The trees are seeded in SQL (see
 * `seed.ts`: synthetic leaves, no events). DATABASE_URL (default the local server) names the
 * database; the run uses a schema of its own and drops it at the end. `--write` records the table
 * in bench/RESULTS.md.
 */
import { parseArgs } from 'node:util';
import { verifyConsistency, verifyInclusion } from '@latchkey/core/client';
import { consistencyProof, inclusionProof } from '@latchkey/core/store';
import { createPostgresStore } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { dropSchemaFor, seedTree } from './seed.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,1000000,10000000' },
    proofs: { type: 'string', default: '300' },
    write: { type: 'boolean', default: false },
  },
});
const sizes = args.sizes.split(',').map(Number);
const proofs = Number(args.proofs);
const url = process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test';
const schema = `bench_proofs_${process.pid}`;
const log = (message: string) => process.stderr.write(`${message}\n`);
const GOAL = 2;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const random = (n: number) => Math.floor(Math.random() * n);

const driver = await pgDriver({ connectionString: url, max: 4 });
const store = await createPostgresStore({ driver, schema });
interface Row {
  size: number;
  seedSeconds: number;
  inclusion: { p50: number; p99: number; hashes: number };
  consistency: { p50: number; p99: number; hashes: number };
}
type Made = { hashes: number; check: () => Promise<boolean> };
type Kind = 'inclusion' | 'consistency';

/** One proof of `kind` in the tree of organization `org` (`size` leaves), as the routes make it. */
function prover(org: string, size: number, root: Uint8Array, kind: Kind): () => Promise<Made> {
  const read = (addresses: readonly { level: number; index: number }[]) =>
    store.activity.treeNodes(org, addresses);
  if (kind === 'inclusion') {
    return async () => {
      const index = random(size);
      const { size: treeSize } = (await store.activity.treeHead(org))!;
      const hashes = await inclusionProof(index, treeSize, read);
      const check = async () => {
        const [leaf] = await read([{ level: 0, index }]);
        return verifyInclusion({ leafHash: leaf!, leafIndex: index, treeSize, hashes, rootHash: root });
      };
      return { hashes: hashes.length, check };
    };
  }
  return async () => {
    const from = 1 + random(size - 1);
    const { size: to } = (await store.activity.treeHead(org))!;
    const hashes = await consistencyProof(from, to, read);
    const check = async () => {
      const fromRoot = (await store.activity.treeHead(org, from))!.rootHash;
      return verifyConsistency({ from, to, hashes, fromRoot, toRoot: root });
    };
    return { hashes: hashes.length, check };
  };
}

const rows: Row[] = [];
try {
  const trees: { size: number; org: string; seedSeconds: number; root: Uint8Array }[] = [];
  for (const size of sizes) {
    const org = `org_bench_${size}`;
    log(`seeding a tree of ${size.toLocaleString('en-US')} leaves…`);
    const seedStart = performance.now();
    await seedTree(url, schema, org, size);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    trees.push({ size, org, seedSeconds, root: (await store.activity.treeHead(org))!.rootHash });
  }
  // The sizes take turns, ten rounds of a tenth of the proofs each, so the machine's load falls on all alike.
  const samples = new Map<string, { ms: number[]; hashes: number }>();
  const ROUNDS = 10;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const tree of trees) {
      for (const kind of ['inclusion', 'consistency'] as const) {
        const prove = prover(tree.org, tree.size, tree.root, kind);
        const key = `${tree.size}/${kind}`;
        const sample = samples.get(key) ?? { ms: [], hashes: 0 };
        samples.set(key, sample);
        const count = round === 0 ? 20 : Math.ceil(proofs / ROUNDS);
        for (let i = 0; i < count; i++) {
          const start = performance.now();
          const proof = await prove();
          const took = performance.now() - start;
          if (!(await proof.check())) throw new Error('a proof did not verify');
          // Round 0 warms the connections and caches.
          if (round > 0) {
            sample.ms.push(took);
            sample.hashes += proof.hashes;
          }
        }
      }
    }
  }
  for (const tree of trees) {
    const figures = (kind: Kind) => {
      const { ms, hashes } = samples.get(`${tree.size}/${kind}`)!;
      ms.sort((a, b) => a - b);
      return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), hashes: hashes / ms.length };
    };
    const row = {
      size: tree.size,
      seedSeconds: tree.seedSeconds,
      inclusion: figures('inclusion'),
      consistency: figures('consistency'),
    };
    rows.push(row);
    log(
      `  ${tree.size.toLocaleString('en-US')}: inclusion p50 ${row.inclusion.p50.toFixed(2)} ms, consistency p50 ${row.consistency.p50.toFixed(2)} ms`,
    );
  }
} finally {
  await dropSchemaFor(url, schema);
  await store.close().catch(() => {});
}

const pad = (value: string, width: number) => value.padStart(width);
const table = [
  '| events | inclusion p50 ms | inclusion p99 ms | hashes | consistency p50 ms | consistency p99 ms | hashes | seed s |',
  '| -----: | ---------------: | ---------------: | -----: | -----------------: | -----------------: | -----: | -----: |',
  ...rows.map(
    (r) =>
      `| ${pad(r.size.toLocaleString('en-US'), 10)} | ${r.inclusion.p50.toFixed(2)} | ${r.inclusion.p99.toFixed(2)} | ${r.inclusion.hashes.toFixed(1)} | ${r.consistency.p50.toFixed(2)} | ${r.consistency.p99.toFixed(2)} | ${r.consistency.hashes.toFixed(1)} | ${r.seedSeconds.toFixed(0)} |`,
  ),
];
const first = rows[0]!;
const last = rows.at(-1)!;
const ratios = {
  inclusion: last.inclusion.p50 / first.inclusion.p50,
  consistency: last.consistency.p50 / first.consistency.p50,
};
const verdict = (name: string, ratio: number) =>
  `- ${name}: p50 at ${last.size.toLocaleString('en-US')} is ${ratio.toFixed(2)}x the p50 at ${first.size.toLocaleString('en-US')} (goal: within ${GOAL}x) — ${ratio <= GOAL ? 'met' : 'missed'}.`;
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}.`,
  '',
  `\`pnpm bench:proofs\`: ${proofs} inclusion and ${proofs} consistency proofs per size (the sizes taking turns in ten rounds after a warm-up round, all trees seeded first), random leaves and sizes, on real PostgreSQL: each the tree head (the chain row) then one indexed read of the stored nodes the proof needs, as the proof routes do (without HTTP); every proof verified outside the timing. Trees seeded in SQL with synthetic leaves (no events; see bench/proofs/seed.ts).`,
  '',
  ...table,
  '',
  verdict('inclusion', ratios.inclusion),
  verdict('consistency', ratios.consistency),
];
publishResults(block.join('\n'), { id: 'proofs', heading: 'Merkle proofs' }, args.write);
