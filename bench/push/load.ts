/**
 * The load generator: a fixed number of keep-alive connections (an undici Pool), each sending the
 * next pre-signed body as soon as its previous response is read. Warm-up first, then a measured
 * window; only responses completed inside the window count.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

/** Options of {@link runLoad}. */
export interface LoadOptions {
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** Each body is sent once, in order; warm-up and measurement draw from the same list. */
  bodies: readonly Buffer[];
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Called as the measured window opens and closes (e.g. to read the server's CPU time). */
  onWindow?(edge: 'start' | 'end'): Promise<void>;
}

/** What one load run observed. */
export interface LoadResult {
  /** 200 responses completed in the measured window. */
  ok: number;
  /** Non-200 responses and transport errors, warm-up included: must be zero. */
  errors: number;
  /** Count per non-200 status or error name, for diagnosis. */
  errorKinds: Record<string, number>;
  /** The first non-200 body or error message. */
  firstError?: string;
  windowMs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** True when the window closed early because every body had been sent. */
  exhausted: boolean;
  /** CPU used by this (load generator) process during the window, in percent of one core. */
  loadCpuPercent: number;
  /** Bodies sent in total, warm-up included. */
  sent: number;
}

/** Runs warm-up then the measured window against one server. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const latencies = new Float64Array(options.bodies.length);
  let next = 0;
  let phase: 'warmup' | 'measure' | 'done' = 'warmup';
  let ok = 0;
  let errors = 0;
  const errorKinds: Record<string, number> = {};
  let firstError: string | undefined;
  let windowStart = 0;
  let windowEnd = 0;
  let exhausted = false;

  const fail = (kind: string, detail: string) => {
    errors++;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    firstError ??= `${kind}: ${detail.slice(0, 300)}`;
  };

  let closeWindow: () => void = () => {};
  const windowClosed = new Promise<void>((resolve) => {
    closeWindow = () => {
      if (phase === 'done') return;
      phase = 'done';
      windowEnd = performance.now();
      resolve();
    };
  });

  async function worker(): Promise<void> {
    while (phase !== 'done') {
      const index = next++;
      const body = options.bodies[index];
      if (body === undefined) {
        exhausted = true;
        closeWindow();
        return;
      }
      const started = performance.now();
      try {
        const response = await pool.request({
          method: 'POST',
          path: options.path,
          headers: options.headers,
          body,
        });
        if (response.statusCode === 200) {
          await response.body.dump();
          if (phase === 'measure') latencies[ok++] = performance.now() - started;
        } else {
          fail(String(response.statusCode), await response.body.text());
        }
      } catch (error) {
        fail(error instanceof Error ? error.name : 'error', String(error));
      }
    }
  }

  const workers = Array.from({ length: options.connections }, () => worker());
  await sleep(options.warmupMs);
  let cpuStart = process.cpuUsage();
  if (phase === 'warmup') {
    await options.onWindow?.('start');
    cpuStart = process.cpuUsage();
    windowStart = performance.now();
    phase = 'measure';
    const timer = setTimeout(closeWindow, options.durationMs);
    await windowClosed;
    clearTimeout(timer);
  }
  const cpu = process.cpuUsage(cpuStart);
  await options.onWindow?.('end');
  await Promise.all(workers);
  await pool.close();

  const windowMs = windowStart > 0 ? windowEnd - windowStart : 0;
  const sorted = latencies.subarray(0, ok).sort();
  return {
    ok,
    errors,
    errorKinds,
    ...(firstError === undefined ? {} : { firstError }),
    windowMs,
    rps: windowMs > 0 ? (ok / windowMs) * 1000 : 0,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    exhausted,
    loadCpuPercent: windowMs > 0 ? ((cpu.user + cpu.system) / 1000 / windowMs) * 100 : 0,
    sent: Math.min(next, options.bodies.length),
  };
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
