/**
 * Push benchmark: signed pushes per second through each Latchkey adapter against a bare route of the
 * same framework doing the same JSON parse, Ed25519 verify and map update. Every server runs in its
 * own process; this process is only the load generator.
 *
 *   pnpm bench:push [--cycles 6] [--slice 1.25] [--warmup 3] [--connections 32]
 *                   [--only express,hono-bare] [--profile dir] [--rate N] [--write]
 *
 * All servers start together and take turns: each is warmed up, then the load moves from server to
 * server in slices of `--slice` seconds, `--cycles` times round (the order rotating every cycle), so
 * that whatever else the machine is doing falls on every server alike. Figures are medians over a
 * server's slices. `--write` records the table in bench/RESULTS.md; `--profile dir` runs each server
 * under `node --cpu-prof` and leaves its profiles in `dir/<server>/` (the largest file is the main
 * thread's; read it with profile-summary.ts). `--rate N` caps every server at N req/s during the
 * measured slices, so that their CPU per request is compared under the same load.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateDeviceKeyPair } from '@latchkey/core';
import { ADAPTER_PATH, BARE_PATH, REQUEST_HEADERS } from './fixture.js';
import { LoadTarget, percentile } from './load.js';
import { busyPercent, machineTicks } from './machine-load.js';
import { FRAMEWORKS, type Framework, type ServerMessage, type Variant } from './protocol.js';
import { codeVersion, machine, type RunRecord, renderTable, summarize, writeResults } from './report.js';
import { SERVERS } from './servers/index.js';
import { signBodies } from './sign.js';

const here = dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    cycles: { type: 'string', default: '6' },
    slice: { type: 'string', default: '1.25' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    rate: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

const cycles = Number(args.cycles);
const sliceMs = Number(args.slice) * 1000;
const warmupMs = Number(args.warmup) * 1000;
const connections = Number(args.connections);
// A fixed request rate, for comparing CPU per request at equal load (not for the throughput table).
const rate = args.rate === undefined ? undefined : Number(args.rate);
const only = args.only?.split(',').map((s) => s.trim());
const profileDir = args.profile ? resolve(args.profile) : undefined;

interface Target {
  framework: Framework;
  variant: Variant;
  name: string;
}

const targets: Target[] = [];
const missing: string[] = [];
for (const framework of FRAMEWORKS) {
  for (const variant of ['bare', 'adapter'] as const) {
    const name = `${framework}-${variant}`;
    if (only && !only.includes(framework) && !only.includes(name)) continue;
    if (SERVERS[framework][variant]) targets.push({ framework, variant, name });
    else missing.push(name);
  }
}
if (missing.length > 0) console.log(`not available (skipped): ${missing.join(', ')}`);
if (targets.length === 0) throw new Error('no server to measure');

// Every body carries signed_at, which core accepts for 300 s: the whole run must fit well inside.
const plannedMs = targets.length * (warmupMs + cycles * sliceMs);
if (plannedMs > 200_000) {
  throw new Error(
    `a run of ${plannedMs / 1000} s would outlive its signatures: fewer cycles or shorter slices`,
  );
}

/** A server process and the messages it sends. */
interface ServerProcess {
  child: ChildProcess;
  port: number;
  cpuUs(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(target: Target, publicKey: string): Promise<ServerProcess> {
  const execArgv = [...process.execArgv];
  if (profileDir) {
    // One folder per server: the module loader's thread writes a profile of its own next to the main one.
    const dir = join(profileDir, target.name);
    mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  const child = fork(join(here, 'server.ts'), [target.framework, target.variant, publicKey], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters: ((message: ServerMessage) => void)[] = [];
  child.on('message', (message: ServerMessage) => {
    for (const waiter of waiters.splice(0)) waiter(message);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const nextMessage = () =>
    Promise.race([
      new Promise<ServerMessage>((resolve) => waiters.push(resolve)),
      exited.then((code) => Promise.reject(new Error(`${target.name} exited with code ${code}`))),
    ]);
  const ready = await nextMessage();
  if (ready.type !== 'ready') throw new Error(`${target.name} failed to start: ${JSON.stringify(ready)}`);
  return {
    child,
    port: ready.port,
    async cpuUs() {
      const reply = nextMessage();
      child.send({ type: 'cpu' });
      const message = await reply;
      if (message.type !== 'cpu') throw new Error(`${target.name} answered ${message.type} to cpu`);
      return message.usage.user + message.usage.system;
    },
    async stop() {
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

const started = performance.now();
const keys = generateDeviceKeyPair();
// One list of bodies serves every server (each has its own store and its own cursor); it grows
// between slices when the fastest server could run out.
const bodies: Buffer[] = [];
let batches = 0;
const sign = (count: number) => {
  const at = performance.now();
  bodies.push(...signBodies(count, keys.privateKey, ++batches));
  return (performance.now() - at) / 1000;
};
console.log(`signed ${sign(40_000).toFixed(1)} s for 40000 bodies`);

const servers: ServerProcess[] = [];
for (const target of targets) servers.push(await startServer(target, keys.publicKey));
const loads = targets.map(
  (target, i) =>
    new LoadTarget(
      `http://127.0.0.1:${servers[i]!.port}`,
      target.variant === 'bare' ? BARE_PATH : ADAPTER_PATH,
      REQUEST_HEADERS,
      bodies,
      connections,
    ),
);

let fastest = 8000; // req/s; raised as faster servers are seen
const ensureBodies = (load: LoadTarget, ms: number) => {
  const needed = Math.ceil((fastest * ms * 1.5) / 1000);
  if (load.remaining < needed) {
    const count = Math.max(needed, 20_000);
    console.log(`  (signed ${sign(count).toFixed(1)} s for ${count} more bodies)`);
  }
};

const errors = new Map<string, number>();
for (const [i, target] of targets.entries()) {
  ensureBodies(loads[i]!, warmupMs);
  const warm = await loads[i]!.slice(warmupMs);
  errors.set(target.name, warm.errors);
  fastest = Math.max(fastest, (warm.ok / warm.windowMs) * 1000);
  console.log(`warmed up ${target.name}: ${Math.round((warm.ok / warm.windowMs) * 1000)} req/s`);
}

const records: RunRecord[] = [];
const latencies = new Map<string, Float64Array[]>();
for (let cycle = 1; cycle <= cycles; cycle++) {
  // Rotate the order so every server takes every position once in a while.
  const order = targets.map((_, i) => (i + cycle - 1) % targets.length);
  const line: string[] = [];
  for (const i of order) {
    const target = targets[i]!;
    const load = loads[i]!;
    const server = servers[i]!;
    ensureBodies(load, sliceMs);
    const cpuBefore = await server.cpuUs();
    const ticksBefore = machineTicks();
    const slice = await load.slice(sliceMs, rate);
    const machineBusy = busyPercent(ticksBefore, machineTicks());
    const serverCpuUs = (await server.cpuUs()) - cpuBefore;
    // The server's CPU counter also covers the drain after the slice: divide by every response.
    const serverCpuPercent = (serverCpuUs / 1000 / slice.windowMs) * 100;
    const loadCpuPercent = (slice.loadCpuUs / 1000 / slice.windowMs) * 100;
    const rps = (slice.ok / slice.windowMs) * 1000;
    fastest = Math.max(fastest, rps);
    errors.set(target.name, (errors.get(target.name) ?? 0) + slice.errors);
    latencies.set(target.name, [...(latencies.get(target.name) ?? []), slice.latencies]);
    records.push({
      framework: target.framework,
      variant: target.variant,
      cycle,
      rps,
      p50Ms: 0,
      p99Ms: 0,
      serverCpuUsPerRequest: slice.completed > 0 ? serverCpuUs / slice.completed : 0,
      serverCpuPercent,
      loadCpuPercent,
      othersCpuPercent:
        machineBusy === undefined ? 0 : Math.max(0, machineBusy - serverCpuPercent - loadCpuPercent),
      errors: slice.errors,
    });
    if (slice.exhausted) console.log(`  ${target.name} ran out of bodies: its slice was cut short`);
    line.push(`${target.name} ${Math.round(rps)}`);
  }
  console.log(`cycle ${cycle}: ${line.join(', ')} req/s`);
}

await Promise.all(loads.map((load) => load.close()));
await Promise.all(servers.map((server) => server.stop()));

for (const [i, target] of targets.entries()) {
  const count = errors.get(target.name) ?? 0;
  if (count > 0) {
    console.log(
      `${target.name}: ${count} errors ${JSON.stringify(loads[i]!.errorKinds)}; first: ${loads[i]!.firstError}`,
    );
  }
}

// Latency percentiles pool every slice of a server.
const summary = summarize(records);
for (const target of targets) {
  const all = latencies.get(target.name) ?? [];
  const pooled = new Float64Array(all.reduce((n, a) => n + a.length, 0));
  let offset = 0;
  for (const part of all) {
    pooled.set(part, offset);
    offset += part.length;
  }
  pooled.sort();
  const entry = summary.get(`${target.framework}/${target.variant}`);
  if (entry) {
    entry.p50Ms = percentile(pooled, 0.5);
    entry.p99Ms = percentile(pooled, 0.99);
  }
}

const frameworks = FRAMEWORKS.filter((f) => targets.some((t) => t.framework === f));
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
const loadCpu = Math.max(...records.map((r) => r.loadCpuPercent));
const others = records.map((r) => r.othersCpuPercent).sort((a, b) => a - b);
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}. Code: ${codeVersion()}.`,
  '',
  `\`pnpm bench:push\`: each server in its own process, ${connections} keep-alive connections (undici Pool) ` +
    `from one load-generator process. After ${args.warmup} s of warm-up each, the servers take turns in ` +
    `${args.slice} s slices, ${cycles} rounds in a rotating order (${(cycles * sliceMs) / 1000} s measured per server); ` +
    'req/s and CPU are medians over the slices, latencies are pooled. Every request is a distinct pre-signed ' +
    'push of one new key with `if_version: 0`, and the same bodies go to every server. Only 200 responses ' +
    `count; errors over the whole run: ${errorCount}. The load generator used at most ${loadCpu.toFixed(0)}% of a core; ` +
    `other processes on the machine used a median ${percentileOf(others, 0.5).toFixed(0)}% ` +
    `(max ${others[others.length - 1]!.toFixed(0)}%) of a core during the slices.`,
  '',
  ...renderTable(frameworks, summary),
].join('\n');

console.log(`\n${block}\n`);
console.log(`finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (args.write) {
  const file = join(here, '..', 'RESULTS.md');
  writeResults(file, block);
  console.log(`written to ${file}`);
}
if (errorCount > 0) process.exitCode = 1;

function percentileOf(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
