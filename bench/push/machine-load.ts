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
