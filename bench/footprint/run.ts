/**
 * `pnpm bench:footprint`: the memory each example server holds, on PGlite (a new data directory,
 * then an existing one with 100,000 events and 10,000 secrets) and on the memory store, in one run;
 * hono also on a new directory with V8's optimizing WebAssembly tier (the driver's
 * `wasmCompiler: 'optimizing'`), to show what the default saves and what it costs in pushes.
 *
 *   tsx bench/footprint/run.ts [--frameworks hono,express,fastify] [--idle 5] [--write]
 *
 * Each server is started with `pnpm --dir examples/<name> start` (which builds it and runs the
 * bundle with node), with `LATCHKEY_MEMORY_LOG`; the server's own process is measured, not pnpm's
 * or the shell's. RSS comes from /proc; Node's heap and PGlite's WebAssembly heap from the server's
 * memory lines. The existing directory is built once (`bench/node_modules/.cache/latchkey-footprint/`)
 * and copied for each server. `--write` records the tables in bench/RESULTS.md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { codeVersion, machine, publishResults } from '../push/report.js';
import { type MemoryLine, memoryLines, processRunning, resetPeak, rssOf, sampled } from './measure.js';
import { SEED, seededDirectory } from './seed.js';
import { prepareWorkload, runWorkload, TOKEN, WORKLOAD } from './workload.js';

const { values: args } = parseArgs({
  options: {
    frameworks: { type: 'string', default: 'hono,express,fastify' },
    idle: { type: 'string', default: '5' },
    write: { type: 'boolean', default: false },
  },
});
const frameworks = args.frameworks.split(',');
const idleSeconds = Number(args.idle);
/** The goals of issue 42, for hono on a new PGlite directory (MB). */
const GOALS = { startPeak: 250, idle: 200, workloadPeak: 350 };
const STORES = ['memory', 'pglite-fresh', 'pglite-existing', 'pglite-optimizing'] as const;
type StoreKind = (typeof STORES)[number];
/** The stores each server is measured on: the optimizing tier's row for hono only. */
const storesOf = (framework: string) =>
  STORES.filter((store) => store !== 'pglite-optimizing' || framework === 'hono');

interface Figures {
  start: number;
  migrated: MemoryLine;
  startPeak: number;
  idle: number;
  idleHeap: number;
  workloadPeak: number;
  workloadHeap: number;
  workloadWasm: number;
  seconds: number;
  pushesPerSecond: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const last = (lines: MemoryLine[]) => lines[lines.length - 1]!;

/** Starts `framework` on `store`, measures each phase, and stops it. */
async function measure(framework: string, store: StoreKind, seed: string): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-footprint-'));
  let spec = 'memory';
  if (store === 'pglite-fresh' || store === 'pglite-optimizing') spec = join(dir, 'data');
  if (store === 'pglite-existing') {
    cpSync(seed, join(dir, 'seed'), { recursive: true });
    spec = join(dir, 'seed', 'data');
  }
  const started = await startExample(framework, {
    PORT: '0',
    LATCHKEY_STORE: spec,
    LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
    LATCHKEY_MEMORY_LOG: '100',
    ...(store === 'pglite-optimizing' ? { LATCHKEY_PGLITE_WASM_COMPILER: 'optimizing' } : {}),
  });
  const pid = processRunning(started.child.pid!, 'dist/server.mjs');
  try {
    const startPeak = rssOf(pid).peak;
    const begun = memoryLines(started.output());
    const migrated = begun.find((line) => line.stage === 'store open')!;
    await sleep(idleSeconds * 1000);
    const idle = rssOf(pid).rss;
    const idleHeap = last(memoryLines(started.output())).heapUsed;
    const device = await prepareWorkload(started.url);
    const before = memoryLines(started.output()).length;
    const reset = resetPeak(pid);
    const t0 = performance.now();
    const { result, max } = await sampled(pid, () => runWorkload(started.url, device));
    const seconds = (performance.now() - t0) / 1000;
    await sleep(300);
    const during = memoryLines(started.output()).slice(before);
    return {
      start: begun[0]!.rss,
      migrated,
      startPeak,
      idle,
      idleHeap,
      workloadPeak: reset ? rssOf(pid).peak : max,
      workloadHeap: Math.max(...during.map((line) => line.heapUsed)),
      workloadWasm: Math.max(...during.map((line) => line.wasmHeap)),
      seconds,
      pushesPerSecond: result.pushesPerSecond,
    };
  } finally {
    await stopExample(started.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PGlite alone (the driver, no Latchkey) in a process of its own: the raw limit. */
function bare(kind: 'fresh' | 'existing' | 'defaults', seed: string) {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-footprint-bare-'));
  try {
    let dataDir = join(dir, 'data');
    if (kind === 'existing') {
      cpSync(seed, join(dir, 'seed'), { recursive: true });
      dataDir = join(dir, 'seed', 'data');
    }
    const flags = kind === 'defaults' ? ['--postgres-defaults'] : [];
    const out = execFileSync(process.execPath, [bareBundle, dataDir, ...flags], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()!) as {
      before: number;
      opened: { rss: number; peak: number };
      idle: number;
      wasmHeap: number;
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bare script, built as the examples are (one file for plain node, no loader). */
const bareBundle = join(import.meta.dirname, '..', 'node_modules', '.cache', 'latchkey-bare-pglite.mjs');
const build = join(import.meta.dirname, '..', '..', 'examples', 'shared', 'bin', 'build-example.mjs');
execFileSync(process.execPath, [build, join(import.meta.dirname, 'bare-pglite.ts'), bareBundle]);

const mb = (value: number) => Math.round(value).toLocaleString('en-US');
const seedRoot = join(import.meta.dirname, '..', 'node_modules', '.cache', 'latchkey-footprint', 'seed');
await seededDirectory(seedRoot, (line) => process.stderr.write(`${line}\n`));
const results = new Map<string, Figures>();
for (const framework of frameworks) {
  for (const store of storesOf(framework)) {
    process.stderr.write(`${framework} on ${store}…\n`);
    const figures = await measure(framework, store, seedRoot);
    results.set(`${framework}/${store}`, figures);
    process.stderr.write(`  ${JSON.stringify(figures)}\n`);
  }
}
const bareRows = (['fresh', 'existing', 'defaults'] as const).map(
  (kind) => [kind, bare(kind, seedRoot)] as const,
);

const rows = [
  '| server | store | RSS at start | after migrations: RSS (heap / WASM heap) | peak during start | idle: RSS (heap) | workload peak: RSS (heap / WASM heap) | workload s | pushes/s |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...[...results].map(([key, f]) => {
    const [framework, store] = key.split('/');
    return `| ${framework} | ${store} | ${mb(f.start)} | ${mb(f.migrated.rss)} (${mb(f.migrated.heapUsed)} / ${mb(f.migrated.wasmHeap)}) | ${mb(f.startPeak)} | ${mb(f.idle)} (${mb(f.idleHeap)}) | ${mb(f.workloadPeak)} (${mb(f.workloadHeap)} / ${mb(f.workloadWasm)}) | ${f.seconds.toFixed(1)} | ${f.pushesPerSecond.toFixed(0)} |`;
  }),
];
const bareTable = [
  '| PGlite alone (the driver, no Latchkey) | RSS before | peak while opening | RSS 2 s later | WASM heap |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...bareRows.map(
    ([kind, b]) =>
      `| ${{ fresh: 'new directory, from the template', existing: 'the seeded directory', defaults: "new directory, PGlite's initdb and PostgreSQL's memory defaults (before)" }[kind]} | ${mb(b.before)} | ${mb(b.opened.peak)} | ${mb(b.idle)} | ${mb(b.wasmHeap)} |`,
  ),
];
const goal = (name: string, value: number, limit: number) =>
  `- hono on a new PGlite directory, ${name}: ${mb(value)} MB ${value <= limit ? 'meets' : 'MISSES'} the ${limit} MB goal.`;
const hono = results.get('hono/pglite-fresh');
const memory = results.get('hono/memory');
const optimizing = results.get('hono/pglite-optimizing');
/** The goal on pushes: PGlite's pace at least the recorded 0.10x of the memory store's. */
const PUSH_RATIO = 0.1;
const ratio = hono && memory ? hono.pushesPerSecond / memory.pushesPerSecond : 0;
const notes = hono
  ? [
      goal('peak during start', hono.startPeak, GOALS.startPeak),
      goal('idle', hono.idle, GOALS.idle),
      goal("the workload's peak", hono.workloadPeak, GOALS.workloadPeak),
      ...(memory
        ? [
            `- The same server on the memory store, in this run: ${mb(memory.startPeak)} MB peak during start, ${mb(memory.idle)} MB idle, ${mb(memory.workloadPeak)} MB at the workload's peak.`,
            `- hono's pushes on a new PGlite directory: ${hono.pushesPerSecond.toFixed(0)}/s, ${ratio.toFixed(2)}x of the memory store's ${memory.pushesPerSecond.toFixed(0)}/s in this run: ${ratio >= PUSH_RATIO ? 'meets' : 'MISSES'} the ${PUSH_RATIO.toFixed(2)}x goal.`,
          ]
        : []),
      ...(optimizing
        ? [
            `- With V8's optimizing tier (\`LATCHKEY_PGLITE_WASM_COMPILER=optimizing\`): ${mb(optimizing.startPeak)} MB peak during start, ${mb(optimizing.idle)} MB idle, ${mb(optimizing.workloadPeak)} MB at the workload's peak, ${optimizing.pushesPerSecond.toFixed(0)} pushes/s.`,
          ]
        : []),
    ]
  : [];
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}.`,
  '',
  `\`pnpm bench:footprint\`: each example server started with \`pnpm --dir examples/<name> start\` (which builds it into one file and runs it with node; the server's process is measured, not pnpm's or the shell's), with \`LATCHKEY_MEMORY_LOG=100\`. MB throughout. "RSS at start" is the process before the store opens (Node and the modules of the bundle); "after migrations" when the store has opened and migrated (Node's heap in use, PGlite's WebAssembly heap as grown: its pages count in RSS once touched); "peak during start" the kernel's peak RSS (VmHWM) when the server listens; "idle" ${idleSeconds} s later. The workload, over HTTP: ${WORKLOAD.pushes} signed pushes of one key (${WORKLOAD.concurrency} in flight), up to ${WORKLOAD.historyPages} history pages of ${WORKLOAD.pageSize} events, the activity export and a backup, one after the other; its peak is VmHWM reset before it. PGlite runs on V8's baseline WebAssembly tier (the driver's default) except in the row "pglite-optimizing". The pushes' pace is that of the ${WORKLOAD.pushes} pushes. The existing directory holds ${SEED.events.toLocaleString('en-US')} events and ${SEED.secrets.toLocaleString('en-US')} secrets of one organization.`,
  '',
  ...rows,
  '',
  ...bareTable,
  '',
  ...notes,
].join('\n');
publishResults(block, { id: 'footprint', heading: 'Memory footprint' }, args.write);
