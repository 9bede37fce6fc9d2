/** A closed-loop load: `concurrency` workers each run `op` back to back until the time is up. */
import { cpuUsage } from 'node:process';

export interface LoopResult {
  ops: number;
  errors: number;
  seconds: number;
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU of this process per operation, in microseconds. */
  cpuUsPerOp: number;
}

/** Runs `op(i)` with `concurrency` in flight for `seconds`; `i` counts up across all workers. */
export async function closedLoop(
  op: (i: number) => Promise<boolean>,
  concurrency: number,
  seconds: number,
): Promise<LoopResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const cpu = cpuUsage();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await op(next++).catch(() => false);
        if (ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    ops: latencies.length,
    errors,
    seconds: elapsed,
    opsPerSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cpuUsPerOp: latencies.length ? (used.user + used.system) / latencies.length : 0,
  };
}
