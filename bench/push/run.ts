/**
 * Push benchmark: signed pushes per second through each Latchkey adapter against a bare route of the
 * same framework doing the same JSON parse, Ed25519 verify and map update. Every server runs alone in
 * its own process; this process is only the load generator.
 *
 *   pnpm bench:push [--rounds 3] [--warmup 2] [--duration 6] [--connections 32]
 *                   [--only express,hono-bare] [--profile dir] [--write]
 *
 * `--write` records the table in bench/RESULTS.md; `--profile dir` runs each server under
 * `node --cpu-prof` and leaves its profiles in `dir/<server>-r<round>/` (the largest is the main
 * thread's; read it with profile-summary.ts).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateDeviceKeyPair } from '@latchkey/core';
import { ADAPTER_PATH, BARE_PATH, REQUEST_HEADERS } from './fixture.js';
import { runLoad } from './load.js';
import { busyPercent, type CpuTicks, machineTicks, waitForQuiet } from './machine-load.js';
import { FRAMEWORKS, type Framework, type ServerMessage, type Variant } from './protocol.js';
import { machine, type RunRecord, renderTable, summarize, writeResults } from './report.js';
import { SERVERS } from './servers/index.js';
import { signBodies } from './sign.js';

const here = dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '32' },
    bodies: { type: 'string', default: '60000' },
    only: { type: 'string' },
    quiet: { type: 'string', default: '30' },
    profile: { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});

const rounds = Number(args.rounds);
const warmupMs = Number(args.warmup) * 1000;
const durationMs = Number(args.duration) * 1000;
const connections = Number(args.connections);
// Seconds to wait, before each run, for other processes to leave the machine nearly idle.
const quietWaitMs = Number(args.quiet) * 1000;
const only = args.only?.split(',').map((s) => s.trim());
const profileDir = args.profile ? resolve(args.profile) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

interface Target {
  framework: Framework;
  variant: Variant;
}

const targets: Target[] = [];
const missing: string[] = [];
for (const framework of FRAMEWORKS) {
  for (const variant of ['bare', 'adapter'] as const) {
    if (only && !only.includes(framework) && !only.includes(`${framework}-${variant}`)) continue;
    if (SERVERS[framework][variant]) targets.push({ framework, variant });
    else missing.push(`${framework}-${variant}`);
  }
}
if (missing.length > 0) console.log(`not available (skipped): ${missing.join(', ')}`);

/** A server process and the messages it sends. */
interface ServerProcess {
  child: ChildProcess;
  port: number;
  cpu(): Promise<NodeJS.CpuUsage>;
  stop(): Promise<void>;
}

async function startServer(target: Target, publicKey: string, round: number): Promise<ServerProcess> {
  const name = `${target.framework}-${target.variant}`;
  const execArgv = [...process.execArgv];
  if (profileDir) {
    // One folder per run: the module loader's thread writes a profile of its own next to the main one.
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${name}-r${round}`)}`);
  }
  const child = fork(join(here, 'server.ts'), [target.framework, target.variant, publicKey], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters: ((message: ServerMessage) => void)[] = [];
  child.on('message', (message: ServerMessage) => {
    for (const waiter of waiters.splice(0)) waiter(message);
  });
  const nextMessage = () =>
    new Promise<ServerMessage>((resolve, reject) => {
      waiters.push(resolve);
      child.once('exit', (code) => reject(new Error(`${name} exited with code ${code}`)));
    });
  const ready = await nextMessage();
  if (ready.type !== 'ready') throw new Error(`${name} failed to start: ${JSON.stringify(ready)}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    port: ready.port,
    async cpu() {
      const reply = nextMessage();
      child.send({ type: 'cpu' });
      const message = await reply;
      if (message.type !== 'cpu') throw new Error(`${name} answered ${message.type} to cpu`);
      return message.usage;
    },
    async stop() {
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

const keys = generateDeviceKeyPair();
const records: RunRecord[] = [];
let bodyCount = Number(args.bodies);
const started = performance.now();

for (let round = 1; round <= rounds; round++) {
  const signing = performance.now();
  let bodies = signBodies(bodyCount, keys.privateKey, round);
  let signedAt = performance.now();
  console.log(`round ${round}: signed ${bodyCount} bodies in ${((signedAt - signing) / 1000).toFixed(1)} s`);
  // Interleave: every other round runs the servers in the opposite order.
  const order = round % 2 === 1 ? targets : [...targets].reverse();
  for (const target of order) {
    // signed_at must stay within 300 s of the server's clock: sign again when the batch gets old.
    if (performance.now() - signedAt > 200_000) {
      bodies = signBodies(bodyCount, keys.privateKey, round * 100 + records.length);
      signedAt = performance.now();
    }
    const quiet = await waitForQuiet(25, quietWaitMs);
    const server = await startServer(target, keys.publicKey, round);
    let cpuStart: NodeJS.CpuUsage | undefined;
    let cpuDelta = 0;
    let ticksStart: CpuTicks | undefined;
    let machineBusy: number | undefined;
    const result = await runLoad({
      origin: `http://127.0.0.1:${server.port}`,
      path: target.variant === 'bare' ? BARE_PATH : ADAPTER_PATH,
      headers: REQUEST_HEADERS,
      bodies,
      connections,
      warmupMs,
      durationMs,
      async onWindow(edge) {
        const usage = await server.cpu();
        if (edge === 'start') {
          cpuStart = usage;
          ticksStart = machineTicks();
        } else if (cpuStart) {
          cpuDelta = usage.user + usage.system - cpuStart.user - cpuStart.system;
          machineBusy = busyPercent(ticksStart, machineTicks());
        }
      },
    });
    await server.stop();
    const serverCpuPercent = result.windowMs > 0 ? (cpuDelta / 1000 / result.windowMs) * 100 : 0;
    // What the rest of the machine used meanwhile: all busy time less the server and this process.
    const othersCpuPercent =
      machineBusy === undefined ? 0 : Math.max(0, machineBusy - serverCpuPercent - result.loadCpuPercent);
    const record: RunRecord = {
      ...target,
      round,
      rps: result.rps,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      serverCpuUsPerRequest: result.ok > 0 ? cpuDelta / result.ok : 0,
      serverCpuPercent,
      loadCpuPercent: result.loadCpuPercent,
      othersCpuPercent,
      errors: result.errors,
    };
    records.push(record);
    console.log(
      `  ${`${target.framework} ${target.variant}`.padEnd(16)} ${Math.round(result.rps).toString().padStart(6)} req/s` +
        `  p50 ${result.p50Ms.toFixed(1)} ms  p99 ${result.p99Ms.toFixed(1)} ms` +
        `  server ${record.serverCpuPercent.toFixed(0)}% CPU, ${record.serverCpuUsPerRequest.toFixed(0)} µs/req` +
        `  load generator ${result.loadCpuPercent.toFixed(0)}%  other processes ${othersCpuPercent.toFixed(0)}%` +
        (quiet.waitedMs > 1000 ? ` (waited ${(quiet.waitedMs / 1000).toFixed(0)} s for quiet)` : '') +
        `  errors ${result.errors}` +
        (result.exhausted ? '  (ran out of bodies: window cut short)' : ''),
    );
    if (result.errors > 0) {
      console.log(`    errors by kind: ${JSON.stringify(result.errorKinds)}; first: ${result.firstError}`);
    }
  }
  // Enough bodies for the fastest server next round, with room to spare.
  const fastest = Math.max(...records.map((r) => r.rps));
  bodyCount = Math.max(bodyCount, Math.ceil((fastest * (warmupMs + durationMs) * 1.3) / 1000));
}

const frameworks = FRAMEWORKS.filter((f) => targets.some((t) => t.framework === f));
const summary = summarize(records);
const errors = records.reduce((sum, r) => sum + r.errors, 0);
const table = renderTable(frameworks, summary);
const loadCpu = Math.max(...records.map((r) => r.loadCpuPercent));
const othersCpu = records.map((r) => r.othersCpuPercent);
const block = [
  `Date: ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}.`,
  '',
  `\`pnpm bench:push\`: ${connections} keep-alive connections (undici Pool), each server alone in its own process, ` +
    `${args.warmup} s warm-up then ${args.duration} s measured, ${rounds} interleaved rounds, medians shown. ` +
    'Each request is a distinct pre-signed push of one new key with `if_version: 0`; the same bodies go to every server. ' +
    `Only 200 responses count; errors over all runs: ${errors}. Load generator CPU at most ${loadCpu.toFixed(0)}% of a core; ` +
    `other processes on the machine used ${Math.min(...othersCpu).toFixed(0)}–${Math.max(...othersCpu).toFixed(0)}% of a core during the measured windows.`,
  '',
  ...table,
].join('\n');

console.log(`\n${block}\n`);
console.log(`finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (args.write) {
  const file = join(here, '..', 'RESULTS.md');
  writeResults(file, block);
  console.log(`written to ${file}`);
}
if (errors > 0) process.exitCode = 1;
