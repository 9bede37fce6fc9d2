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
import {
  createMemoryReplayStore,
  createWebhookVerifier,
  generateSigningKeyPair,
  sign,
  standardSignatureHeaders,
} from '@latchkey/webhook-verifier';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import { nobleReceiver, rawEd25519 } from './ed25519-peers.js';

const QUICK = process.env['BENCH_QUICK'] === '1';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (QUICK ? 2 : 6));
const ROUND_MS = QUICK ? 60 : 400;
/** The length of one timed chunk; a turn alternates chunks of an implementation and of the raw limit. */
const CHUNK_MS = 2;
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

type ReplayStore = ReturnType<typeof createMemoryReplayStore>;

/**
 * One of our rows: its replay cache emptied for each pool, and `prepare` building on it. Every op of
 * a pass must store a fresh id, so the pass's ids are forgotten after it (untimed). A replay would
 * reject and stop the benchmark, so this cannot silently measure the `replayed` path.
 */
function cachedImpl(
  name: string,
  note: string,
  idFirst: boolean,
  prepare: (store: ReplayStore, bodies: Buffer[], timestamp: number) => Op,
): Impl {
  const store = createMemoryReplayStore({ maxEntries: 200_000 });
  let poolSize = 0;
  return {
    name,
    note,
    idFirst,
    prepare(bodies, timestamp) {
      store.clear();
      poolSize = bodies.length;
      return prepare(store, bodies, timestamp);
    },
    afterPass() {
      for (let k = 0; k < poolSize; k++) store.release(idOf(k));
    },
  };
}

function oursImpl(name: string, note: string, setup: OursSetup): Impl {
  return cachedImpl(name, note, setup.idFirst, (store, bodies, timestamp) => {
    const now = Date.now();
    for (let k = 0; k < setup.prefill; k++) store.claim(`evt_prefill_${k}`, now + 3_600_000, now);
    const verifier = createWebhookVerifier({ secret, replayStore: store });
    const headers = bodies.map((body) => ({
      'x-service-timestamp': String(timestamp),
      'x-service-signature': sign({ secret, timestamp, body }),
    }));
    return setup.readJson
      ? (i) => verifier.verify(bodies[i]!, headers[i]!).then((event) => event.json())
      : (i) => verifier.verify(bodies[i]!, headers[i]!);
  });
}

const signingKeys = generateSigningKeyPair();

/**
 * Ours on a Standard Webhooks scheme (`v1` HMAC with the standard secret, or `v1a` Ed25519 with the
 * public key), bodies signed by our sender, the replay cache storing a fresh id (`webhook-id`) per op.
 */
function oursStandardImpl(name: string, note: string, ed25519: boolean): Impl {
  return cachedImpl(name, note, true, (store, bodies, timestamp) => {
    const verifier = createWebhookVerifier(
      ed25519
        ? { publicKey: signingKeys.publicKey, replayStore: store }
        : { secret: standardSecret, replayStore: store },
    );
    const keys = ed25519 ? { privateKeys: [signingKeys.privateKey] } : { secrets: [standardSecret] };
    const headers = bodies.map((body, k) =>
      standardSignatureHeaders({ ...keys, eventId: idOf(k), body, timestamp }),
    );
    return (i) => verifier.verify(bodies[i]!, headers[i]!);
  });
}

/**
 * A Standard Webhooks verifier (Svix's too) on bodies signed by the standardwebhooks sender, its
 * headers named `<prefix>-id`, `-timestamp` and `-signature`.
 */
function standardImpl(
  name: string,
  prefix: 'webhook' | 'svix',
  makeVerifier: () => { verify(payload: Buffer, headers: Record<string, string>): unknown },
): Impl {
  return {
    name,
    note: 'parses the event; no replay protection',
    prepare(bodies, timestamp) {
      const verifier = makeVerifier();
      const sender = new StandardWebhook(standardSecret);
      const headers = bodies.map((body, n) => ({
        [`${prefix}-id`]: `msg_${n}`,
        [`${prefix}-timestamp`]: String(timestamp),
        [`${prefix}-signature`]: sender.sign(`msg_${n}`, new Date(timestamp * 1000), body.toString()),
      }));
      return (i) => verifier.verify(bodies[i]!, headers[i]!);
    },
  };
}

const OURS = '@latchkey/webhook-verifier verify';
const RAW = 'raw node:crypto HMAC + timingSafeEqual';
const STRIPE = 'stripe constructEvent';
const STANDARD = 'standardwebhooks verify';
const RAW_ED25519 = 'raw node:crypto Ed25519 verify';
const NOBLE = 'v1a receiver on @noble/curves ed25519';

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
  oursStandardImpl(
    `${OURS}, standard-webhooks`,
    'v1 HMAC (whsec_ standard base64); memory replay cache, a fresh webhook-id stored every op',
    false,
  ),
  oursStandardImpl(
    `${OURS}, standard-webhooks-ed25519`,
    'v1a Ed25519 with the whpk_ public key; memory replay cache, a fresh webhook-id stored every op',
    true,
  ),
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
  standardImpl(STANDARD, 'webhook', () => new StandardWebhook(standardSecret)),
  {
    name: RAW_ED25519,
    note: 'the v1a limit: one crypto.verify of precomputed content and signature, nothing else',
    prepare: (bodies, timestamp) => rawEd25519(signingKeys, bodies, timestamp),
  },
  {
    name: NOBLE,
    note: "a receiver's own v1a check (the libraries have none): headers, window, @noble/curves Ed25519; parses the event; no replay protection",
    prepare: (bodies, timestamp) => nobleReceiver(signingKeys, bodies, timestamp),
  },
  standardImpl('svix verify', 'svix', () => new SvixWebhook(standardSecret)),
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
  (impl, k) =>
    !only ||
    k === 0 ||
    only.test(impl.name) ||
    /^(stripe|standardwebhooks) /.test(impl.name) ||
    (only.test(`${OURS}, standard-webhooks-ed25519`) && [RAW_ED25519, NOBLE].includes(impl.name)),
);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

type Size = (typeof SIZES)[number];
type Request = { kind: 'prepare'; size: Size } | { kind: 'run'; size: Size; ms: number };
/** Per pair of neighbouring chunks: the implementation's ops/s and its ratio to the raw limit's. */
type Reply =
  | { kind: 'ready' }
  | { kind: 'ran'; rates: number[]; ratios: number[] }
  | { kind: 'failed'; message: string };

/** Runs `count` operations from position `at` of the pool; returns the wall time in ms. */
async function chunk(op: Op, at: number, count: number): Promise<number> {
  const start = performance.now();
  for (let i = at; i < at + count; i++) {
    const r = op(i);
    if (r instanceof Promise) await r;
  }
  return performance.now() - start;
}

/** One implementation and a raw-limit reference over the same pool, timed in alternating chunks. */
interface Prepared {
  op: Op;
  raw: Op;
  /** Operations per chunk: about CHUNK_MS worth, and a divisor of the pool size. */
  size: number;
  implAt: number;
  rawAt: number;
}

/**
 * Child mode: one implementation per process, so no two implementations (our variants included) share
 * JIT state or heap. Each process also runs the raw limit on the same pool, alternating with the
 * implementation every ~2 ms; each pair of neighbouring chunks gives one ratio, and medians over
 * hundreds of pairs shrug off the bursts of other work on the machine.
 */
function serveChild(impl: Impl): void {
  const prepared = new Map<Size, Prepared>();
  const reply = (message: Reply) => process.send!(message);
  const rawImpl = allImpls.find((candidate) => candidate.name === RAW)!;
  process.on('message', async (request: Request) => {
    try {
      const n = POOL[request.size];
      if (request.kind === 'prepare') {
        const timestamp = Math.floor(Date.now() / 1000);
        const op = await impl.prepare(eventBodies(request.size, n, impl.idFirst !== false), timestamp);
        const raw = await rawImpl.prepare(eventBodies(request.size, n, true), timestamp);
        // Warm-up passes that also prove every body verifies (the timed chunks only time).
        const start = performance.now();
        for (let i = 0; i < n; i++) {
          if (!(await op(i))) throw new Error(`pool body ${i} did not verify`);
        }
        const passMs = performance.now() - start;
        impl.afterPass?.();
        for (let i = 0; i < n; i++) if (!(await raw(i))) throw new Error('raw limit did not verify');
        let size = Math.min(n, Math.max(1, Math.round((n * CHUNK_MS) / passMs)));
        while (n % size !== 0) size--;
        prepared.set(request.size, { op, raw, size, implAt: 0, rawAt: 0 });
        reply({ kind: 'ready' });
        return;
      }
      const p = prepared.get(request.size)!;
      // This process sat idle while the others ran: warm caches and code up again, untimed.
      await chunk(p.raw, p.rawAt, p.size);
      p.rawAt = (p.rawAt + p.size) % n;
      const rates: number[] = [];
      const ratios: number[] = [];
      const end = performance.now() + request.ms;
      for (let k = 0; performance.now() < end; k++) {
        let implMs = 0;
        let rawMs = 0;
        // Alternate which goes first, so neither side always gets the warmer caches.
        if (k % 2 === 0) rawMs = await chunk(p.raw, p.rawAt, p.size);
        implMs = await chunk(p.op, p.implAt, p.size);
        if (k % 2 === 1) rawMs = await chunk(p.raw, p.rawAt, p.size);
        p.rawAt = (p.rawAt + p.size) % n;
        p.implAt = (p.implAt + p.size) % n;
        // Every op of the next pass must verify a fresh id, so ours forgets this pass's ids (untimed).
        if (p.implAt === 0) impl.afterPass?.();
        rates.push((p.size / implMs) * 1000);
        ratios.push(rawMs / implMs);
      }
      reply({ kind: 'ran', rates, ratios });
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
  /** Median ops/s over all timed chunks. */
  rate: Map<string, number>;
  /** Median over all chunk pairs of the implementation's speed relative to the raw limit's. */
  vsRaw: Map<string, number>;
  /** Chunk pairs measured per implementation. */
  pairs: number;
}

async function measure(children: Child[], size: Size): Promise<Measured> {
  for (const child of children) await child.call({ kind: 'prepare', size });
  const rates = new Map<string, number[]>(children.map((child) => [child.impl.name, []]));
  const ratios = new Map<string, number[]>(children.map((child) => [child.impl.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Round-robin in a rotating order, so slow spells of the machine fall on every implementation.
    for (let k = 0; k < children.length; k++) {
      const child = children[(k + round) % children.length]!;
      const result = await child.call({ kind: 'run', size, ms: ROUND_MS });
      if (result.kind !== 'ran') throw new Error('unexpected reply');
      rates.get(child.impl.name)!.push(...result.rates);
      ratios.get(child.impl.name)!.push(...result.ratios);
    }
  }
  const medians = (values: Map<string, number[]>) =>
    new Map([...values].map(([name, list]) => [name, median(list)]));
  return {
    rate: medians(rates),
    vsRaw: medians(ratios),
    pairs: Math.min(...[...ratios.values()].map((list) => list.length)),
  };
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

  const pairs = Math.min(...[...results.values()].map((r) => r.pairs));
  const intro = [
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpuModel()}); took ${seconds} s; ${load}.`,
    `Each implementation in its own process, ${ROUNDS} round-robin turns of ~${ROUND_MS} ms per size. Within`,
    `a turn the process alternates ~${CHUNK_MS} ms chunks of the implementation and of the raw limit on the same`,
    `pool; "vs raw" is the median over all such pairs (at least ${pairs} per cell), so a burst of other work`,
    'on the machine spoils a few pairs, not the result. On the raw row, "vs raw" pairs the raw limit with',
    'itself: how far from 1.00 it lands shows the noise. "vs stripe" and "vs std" divide two "vs raw"',
    'medians. ops/s: median wall-clock rate over the chunks.',
  ];
  console.log(`${intro.join('\n')}\n`);
  const header = [
    'implementation',
    ...SIZES.flatMap((s) => [`${s / 1024} KiB ops/s`, 'vs raw', 'vs stripe', 'vs std']),
  ];
  const vsRaw = (size: Size, name: string) => results.get(size)!.vsRaw.get(name)!;
  const ratio = (size: Size, name: string, reference: string) => vsRaw(size, name) / vsRaw(size, reference);
  const rows: string[][] = [];
  for (const impl of impls) {
    const cells = [impl.name];
    for (const size of SIZES) {
      cells.push(fmt(results.get(size)!.rate.get(impl.name)!), times(vsRaw(size, impl.name)));
      cells.push(times(ratio(size, impl.name, STRIPE)), times(ratio(size, impl.name, STANDARD)));
    }
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
        ['>= 0.75x raw', vsRaw(size, ours), 0.75],
        ['>= 2x stripe', ratio(size, ours, STRIPE), 2],
        ['>= 4x standardwebhooks', ratio(size, ours, STANDARD), 4],
      ] as const;
      const text = goals.map(
        ([label, got, want]) => `${label}: ${times(got)} ${got >= want ? 'met' : 'MISSED'}`,
      );
      console.log(`- ${size / 1024} KiB: ${text.join('; ')}`);
    }
  }
  schemeGoals(results, ratio);
}

/** The Standard Webhooks rows' goal (>= 1.5x the library), and the Ed25519 row against its limit and its peer. */
function schemeGoals(
  results: Map<Size, { rate: Map<string, number> }>,
  ratio: (size: Size, name: string, reference: string) => number,
): void {
  const rows = [`${OURS}, standard-webhooks`, `${OURS}, standard-webhooks-ed25519`];
  for (const row of rows.filter((name) => results.get(1024)!.rate.has(name))) {
    console.log(`\nGoals for "${row}":`);
    for (const size of SIZES) {
      const text = [`>= 1.5x standardwebhooks: ${times(ratio(size, row, STANDARD))}`];
      text[0] += ratio(size, row, STANDARD) >= 1.5 ? ' met' : ' MISSED';
      for (const peer of row.endsWith('ed25519') ? [RAW_ED25519, NOBLE] : []) {
        if (results.get(size)!.rate.has(peer)) text.push(`vs ${peer}: ${times(ratio(size, row, peer))}`);
      }
      console.log(`- ${size / 1024} KiB: ${text.join('; ')}`);
    }
  }
}

const childOf = process.env['BENCH_CHILD'];
if (childOf === undefined) await main();
else serveChild(allImpls.find((impl) => impl.name === childOf)!);
