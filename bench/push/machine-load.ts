/**
 * How busy the machine is, from /proc/stat: this bench shares a 2-core machine, and a run disturbed
 * by another process says little. Off Linux every reading is `undefined` and nothing waits.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Busy and total CPU time of the whole machine so far, in clock ticks. */
export interface CpuTicks {
  busy: number;
  total: number;
}

/** The machine's CPU counters now, or undefined where /proc/stat does not exist. */
export function machineTicks(): CpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + steal!;
    return { busy, total: busy + idle! + iowait! };
  } catch {
    return undefined;
  }
}

/** Busy cores between two readings (0 to the number of cores), in percent of one core. */
export function busyPercent(from: CpuTicks | undefined, to: CpuTicks | undefined): number | undefined {
  if (!from || !to || to.total === from.total) return undefined;
  return ((to.busy - from.busy) / (to.total - from.total)) * availableParallelism() * 100;
}

/**
 * Waits until the machine has been nearly idle (below `thresholdPercent` of one core) for half a
 * second, or `maxWaitMs` has passed. Returns the last reading and how long it waited.
 */
export async function waitForQuiet(
  thresholdPercent: number,
  maxWaitMs: number,
): Promise<{ busyPercent: number | undefined; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const before = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = busyPercent(before, machineTicks());
    const waitedMs = performance.now() - started;
    if (busy === undefined || busy < thresholdPercent || waitedMs >= maxWaitMs)
      return { busyPercent: busy, waitedMs };
  }
}
