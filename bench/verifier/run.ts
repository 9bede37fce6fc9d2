/**
 * Verifier benchmark: our verify (with the in-memory replay cache storing a fresh id on every op)
 * against the raw node:crypto limit and the verifiers of Stripe, Standard Webhooks, Svix and Octokit,
 * at 1 KiB and 64 KiB bodies.
 *
 * Run: pnpm run bench:verifier. Environment: BENCH_QUICK=1 for a short smoke run, BENCH_ROUNDS=n,
 * BENCH_ONLY=<regex> to keep only matching implementations (plus the raw limit, Stripe and Standard
 * Webhooks, which the ratios need).
 *
 * Fairness: every implementation runs in its own process (no shared JIT state or heap), verifies the
 * same pool of distinct bodies, each with a valid signature made for it, and the processes take turns
 * in short slices so load from elsewhere on the machine falls on all of them alike. Peers do no replay
 * protection; ours stores a fresh id on every op.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createMemoryReplayStore, createWebhookVerifier, sign } from '@latchkey/webhook-verifier';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';

const QUICK = process.env['BENCH_QUICK'] === '1';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (QUICK ? 2 : 10));
const ROUND_MS = QUICK ? 40 : 100;
const SIZES = [1024, 65536] as const;
/** Distinct bodies per size; every implementation cycles through the same pool. */
const POOL = { 1024: 512, 65536: 256 } as const;
/** Unrelated ids already in the cache for the second row (about 83 events/s over the 600 s retention). */
const PREFILL = 50_000;

const secret = 'whsec_bXkgYmVuY2ggc2VjcmV0IGlzIDMyIGJ5dGVzIGxvbmcu';
const standardSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const stripeWebhooks = Stripe.webhooks;

const ID_PLACEHOLDER = 'evt_############';

/** A Latchkey-like event of exactly `size` bytes, `id` first (as the sender serialises it) or last. */
function eventTemplate(size: number, idFirst: boolean): Buffer {
  const id = ID_PLACEHOLDER;
  const fields = {
    type: 'push_applied',
    occurred_at: '2026-11-22T09:30:00.000Z',
    organization: 'acme',
    project: 'checkout',
    environment: 'production',
    actor: { type: 'user', id: 'usr_01JCD5W3N2ZK' },
    device_id: 'dev_01JCD5W9XQ4M',
    data: { keys: [] as { key: string; version: number }[], pad: '' },
  };
  const entry = JSON.stringify({ key: 'SECRET_KEY_00000', version: 10 }).length + 1;
  const count = Math.floor((size - 400) / entry);
  for (let k = 0; k < count; k++) {
    fields.data.keys.push({ key: `SECRET_KEY_${k.toString().padStart(5, '0')}`, version: 1 + (k % 97) });
  }
  const build = () => JSON.stringify(idFirst ? { id, ...fields } : { ...fields, id });
  fields.data.pad = 'x'.repeat(size - Buffer.byteLength(build()));
  const body = Buffer.from(build());
  if (body.length !== size) throw new Error(`body is ${body.length} bytes, wanted ${size}`);
  return body;
}

const idOf = (k: number) => `evt_${k.toString(36).padStart(12, '0')}`;

/** `n` copies of the template, each with its own id (see `idOf`) of the same length. */
function eventBodies(size: number, n: number, idFirst: boolean): Buffer[] {
  const template = eventTemplate(size, idFirst);
  const at = template.indexOf(ID_PLACEHOLDER);
  return Array.from({ length: n }, (_, k) => {
    const body = Buffer.from(template);
    body.write(idOf(k), at, 'latin1');
    return body;
  });
}

/** One verification of pool body `i`; returns (or resolves to) a truthy value when it verified. */
type Op = (i: number) => unknown;
interface Impl {
  name: string;
  note: string;
  /** Builds per-body inputs (untimed) and returns the timed operation. */
  prepare(bodies: Buffer[], timestamp: number): Op | Promise<Op>;
  /** Untimed work between passes over the pool. */
  afterPass?(): void;
  /** Which pool it reads: bodies with `id` first (default) or last. */
  idFirst?: boolean;
}

interface OursSetup {
  /** Which pool to read (see Impl.idFirst). */
  idFirst: boolean;
  /** Also parse the event, as a handler would. */
  readJson: boolean;
  /** Unrelated ids put in the cache first. */
  prefill: number;
}

function oursImpl(name: string, note: string, setup: OursSetup): Impl {
  const store = createMemoryReplayStore({ maxEntries: 200_000 });
  let poolSize = 0;
  return {
    name,
    note,
    idFirst: setup.idFirst,
    prepare(bodies, timestamp) {
      store.clear();
      const now = Date.now();
      for (let k = 0; k < setup.prefill; k++) store.claim(`evt_prefill_${k}`, now + 3_600_000, now);
      poolSize = bodies.length;
      const verifier = createWebhookVerifier({ secret, replayStore: store });
      const headers = bodies.map((body) => ({
        'x-service-timestamp': String(timestamp),
        'x-service-signature': sign({ secret, timestamp, body }),
      }));
      return setup.readJson
        ? (i) => verifier.verify(bodies[i]!, headers[i]!).then((event) => event.json())
        : (i) => verifier.verify(bodies[i]!, headers[i]!);
    },
    afterPass() {
      // Every op of the next pass must store a fresh id: forget this pass's ids (untimed). A replay
      // would reject and stop the benchmark, so this cannot silently measure the `replayed` path.
      for (let k = 0; k < poolSize; k++) store.release(idOf(k));
    },
  };
}

const OURS = '@latchkey/webhook-verifier verify';
const RAW = 'raw node:crypto HMAC + timingSafeEqual';
const STRIPE = 'stripe constructEvent';
const STANDARD = 'standardwebhooks verify';

const allImpls: Impl[] = [
  {
    name: RAW,
    note: 'the limit: no header parsing, no timestamp check, no id, no replay cache',
    prepare(bodies, timestamp) {
      const key = Buffer.from(secret);
      const prefix = `${timestamp}.`;
      const sigs = bodies.map((body) => createHmac('sha256', key).update(prefix).update(body).digest('hex'));
      return (i) => {
        const digest = createHmac('sha256', key).update(prefix).update(bodies[i]!).digest();
        return timingSafeEqual(digest, Buffer.from(sigs[i]!, 'hex'));
      };
    },
  },
  oursImpl(OURS, 'memory replay cache; every op stores a fresh id (cache holds that pass, <= 512 ids)', {
    idFirst: true,
    readJson: false,
    prefill: 0,
  }),
  oursImpl(`${OURS}, cache holding 50k ids`, 'same, with 50,000 other ids already cached', {
    idFirst: true,
    readJson: false,
    prefill: PREFILL,
  }),
  oursImpl(`${OURS} + json()`, 'same as the first row, and the event parsed', {
    idFirst: true,
    readJson: true,
    prefill: 0,
  }),
  oursImpl(`${OURS}, id not first`, 'same as the first row; the body is parsed to find the id', {
    idFirst: false,
    readJson: false,
    prefill: 0,
  }),
  {
    name: STRIPE,
    note: 'parses the event; no replay protection',
    prepare(bodies, timestamp) {
      const headers = bodies.map((body) =>
        stripeWebhooks.generateTestHeaderString({ payload: body.toString(), secret, timestamp }),
      );
      return (i) => stripeWebhooks.constructEvent(bodies[i]!, headers[i]!, secret);
    },
  },
  {
    name: STANDARD,
    note: 'parses the event; no replay protection',
    prepare(bodies, timestamp) {
      const wh = new StandardWebhook(standardSecret);
      const headers = bodies.map((body, n) => ({
        'webhook-id': `msg_${n}`,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': wh.sign(`msg_${n}`, new Date(timestamp * 1000), body.toString()),
      }));
      return (i) => wh.verify(bodies[i]!, headers[i]!);
    },
  },
  {
    name: 'svix verify',
    note: 'parses the event; no replay protection',
    prepare(bodies, timestamp) {
      const sender = new StandardWebhook(standardSecret);
      const wh = new SvixWebhook(standardSecret);
      const headers = bodies.map((body, n) => ({
        'svix-id': `msg_${n}`,
        'svix-timestamp': String(timestamp),
        'svix-signature': sender.sign(`msg_${n}`, new Date(timestamp * 1000), body.toString()),
      }));
      return (i) => wh.verify(bodies[i]!, headers[i]!);
    },
  },
  {
    name: '@octokit/webhooks-methods verify',
    note: 'signature only (no timestamp, no parse, no replay); takes the body as a string',
    async prepare(bodies) {
      const texts = bodies.map((body) => body.toString());
      const sigs = await Promise.all(texts.map((text) => octokitSign(secret, text)));
      return (i) => octokitVerify(secret, texts[i]!, sigs[i]!);
    },
  },
];

// BENCH_ONLY=regex keeps the raw limit, stripe, standardwebhooks and the matching implementations.
const only = process.env['BENCH_ONLY'] ? new RegExp(process.env['BENCH_ONLY']) : undefined;
const impls = allImpls.filter(
  (impl, k) => !only || k === 0 || only.test(impl.name) || /^(stripe|standardwebhooks) /.test(impl.name),
);

async function pass(op: Op, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const r = op(i);
    if (r instanceof Promise) await r;
  }
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

type Size = (typeof SIZES)[number];
type Request = { kind: 'prepare'; size: Size } | { kind: 'run'; size: Size; ms: number };
type Reply =
  | { kind: 'ready' }
  | { kind: 'ran'; ops: number; wallMs: number; cpuMs: number }
  | { kind: 'failed'; message: string };

/**
 * Child mode: one implementation per process, so no two implementations (our variants included)
 * share JIT state or heap. The parent drives all of them round-robin over IPC.
 */
function serveChild(impl: Impl): void {
  const ops = new Map<Size, Op>();
  const reply = (message: Reply) => process.send!(message);
  process.on('message', async (request: Request) => {
    try {
      const n = POOL[request.size];
      if (request.kind === 'prepare') {
        const bodies = eventBodies(request.size, n, impl.idFirst !== false);
        const op = await impl.prepare(bodies, Math.floor(Date.now() / 1000));
        // Warm-up pass that also proves every body verifies (the timed passes only time).
        for (let i = 0; i < n; i++) {
          if (!(await op(i))) throw new Error(`pool body ${i} did not verify`);
        }
        impl.afterPass?.();
        ops.set(request.size, op);
        reply({ kind: 'ready' });
        return;
      }
      const op = ops.get(request.size)!;
      // This process sat idle while the others ran: warm caches and code up again, untimed.
      const warm = performance.now() + 10;
      for (let i = 0; i < n && performance.now() < warm; i++) {
        const r = op(i);
        if (r instanceof Promise) await r;
      }
      impl.afterPass?.();
      let wallMs = 0;
      let cpuMs = 0;
      let count = 0;
      while (wallMs < request.ms) {
        const cpu = process.cpuUsage();
        wallMs += await pass(op, n);
        const used = process.cpuUsage(cpu);
        cpuMs += (used.user + used.system) / 1000;
        count += n;
        impl.afterPass?.();
      }
      reply({ kind: 'ran', ops: count, wallMs, cpuMs });
    } catch (error) {
      reply({ kind: 'failed', message: String(error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  reply({ kind: 'ready' });
}

class Child {
  readonly process: ChildProcess;
  constructor(readonly impl: Impl) {
    // Inherits tsx's loader flags from this process's execArgv.
    this.process = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_CHILD: impl.name },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }
  next(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: Reply) => {
        this.process.off('exit', onExit);
        if (message.kind === 'failed') reject(new Error(`${this.impl.name}: ${message.message}`));
        else resolve(message);
      };
      const onExit = (code: number | null) => {
        this.process.off('message', onMessage);
        reject(new Error(`${this.impl.name}: child exited with ${code}`));
      };
      this.process.once('message', onMessage);
      this.process.once('exit', onExit);
    });
  }
  call(request: Request): Promise<Reply> {
    const reply = this.next();
    this.process.send(request);
    return reply;
  }
}

interface Measured {
  /** Median over rounds of ops per second of the process's own CPU time. */
  rate: Map<string, number>;
  /** Median over rounds of rate / raw limit's rate in the slice right next to it. */
  vsRaw: Map<string, number>;
  /** Median over rounds of ops per wall-clock second, for reference. */
  wall: Map<string, number>;
}

async function measure(children: Child[], size: Size): Promise<Measured> {
  for (const child of children) await child.call({ kind: 'prepare', size });
  const names = children.map((child) => child.impl.name);
  const cpu = new Map<string, number[]>(names.map((name) => [name, []]));
  const wall = new Map<string, number[]>(names.map((name) => [name, []]));
  const vsRaw = new Map<string, number[]>(names.map((name) => [name, []]));
  const slice = async (child: Child) => {
    const result = await child.call({ kind: 'run', size, ms: ROUND_MS });
    if (result.kind !== 'ran') throw new Error('unexpected reply');
    const rate = (result.ops / result.cpuMs) * 1000;
    cpu.get(child.impl.name)!.push(rate);
    wall.get(child.impl.name)!.push((result.ops / result.wallMs) * 1000);
    return rate;
  };
  const [raw, ...others] = children;
  for (let round = 0; round < ROUNDS; round++) {
    // Every implementation runs right next to a slice of the raw limit (before it in even rounds,
    // after it in odd ones), so load from elsewhere on the machine hits both sides of each ratio alike.
    for (let k = 0; k < others.length; k++) {
      const child = others[(k + round) % others.length]!;
      const [first, second] = round % 2 === 0 ? [raw!, child] : [child, raw!];
      const a = await slice(first);
      const b = await slice(second);
      vsRaw.get(child.impl.name)!.push(first === raw ? b / a : a / b);
    }
  }
  vsRaw.get(raw!.impl.name)!.push(1);
  const medians = (values: Map<string, number[]>) =>
    new Map(names.map((name) => [name, median(values.get(name)!)]));
  return { rate: medians(cpu), vsRaw: medians(vsRaw), wall: medians(wall) };
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    return line?.split(':')[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A Markdown table laid out as Biome formats it: first column left-aligned, the others right-aligned. */
function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((row) => row[k]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join(' | ')} |`;
  const rule = `| ${widths.map((w, k) => (k === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const times = (x: number) => `${x.toFixed(2)}x`;

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  const children: Child[] = [];
  const results = new Map<Size, Measured>();
  try {
    for (const impl of impls) {
      const child = new Child(impl);
      children.push(child);
      await child.next();
    }
    for (const size of SIZES) results.set(size, await measure(children, size));
  } finally {
    for (const child of children) child.process.disconnect();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const load = `1-minute load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`;

  const intro = [
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpuModel()}).`,
    `Each implementation in its own process; ${ROUNDS} rounds of ~${ROUND_MS} ms slices per implementation and`,
    `size, each slice after a 10 ms untimed warm-up; took ${seconds} s; ${load}.`,
    "ops/s: operations per second of the measuring process's own CPU time (median over rounds), so time",
    'the machine spent on other work does not count. Every slice runs right next to a slice of the raw',
    'limit; "vs raw" is the median of those paired ratios, "vs stripe" and "vs std" divide two such',
    'medians. Wall-clock ops/s in the last two columns, for reference.',
  ];
  console.log(`${intro.join('\n')}\n`);
  const header = [
    'implementation',
    ...SIZES.flatMap((s) => [`${s / 1024} KiB ops/s`, 'vs raw', 'vs stripe', 'vs std']),
    ...SIZES.map((s) => `${s / 1024} KiB wall ops/s`),
  ];
  // Ratios between two implementations go through the raw limit each was paired with.
  const ratio = (size: Size, name: string, reference: string) =>
    results.get(size)!.vsRaw.get(name)! / results.get(size)!.vsRaw.get(reference)!;
  const rows: string[][] = [];
  for (const impl of impls) {
    const cells = [impl.name];
    for (const size of SIZES) {
      cells.push(fmt(results.get(size)!.rate.get(impl.name)!), times(ratio(size, impl.name, RAW)));
      cells.push(times(ratio(size, impl.name, STRIPE)), times(ratio(size, impl.name, STANDARD)));
    }
    for (const size of SIZES) cells.push(fmt(results.get(size)!.wall.get(impl.name)!));
    rows.push(cells);
  }
  console.log(markdownTable(header, rows));
  console.log('\nNotes:');
  for (const impl of impls) console.log(`- ${impl.name}: ${impl.note}`);

  for (const ours of [OURS, `${OURS}, cache holding 50k ids`].filter((name) =>
    results.get(1024)!.rate.has(name),
  )) {
    console.log(`\nGoals for "${ours}":`);
    for (const size of SIZES) {
      const goals = [
        ['>= 0.75x raw', ratio(size, ours, RAW), 0.75],
        ['>= 2x stripe', ratio(size, ours, STRIPE), 2],
        ['>= 4x standardwebhooks', ratio(size, ours, STANDARD), 4],
      ] as const;
      const text = goals.map(
        ([label, got, want]) => `${label}: ${times(got)} ${got >= want ? 'met' : 'MISSED'}`,
      );
      console.log(`- ${size / 1024} KiB: ${text.join('; ')}`);
    }
  }
}

const childOf = process.env['BENCH_CHILD'];
if (childOf === undefined) await main();
else serveChild(allImpls.find((impl) => impl.name === childOf)!);
