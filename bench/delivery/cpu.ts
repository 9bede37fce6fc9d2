/**
 * Where the CPU goes during a `bench:delivery` run: each process of the bench reports its own
 * (`process.cpuUsage`); PostgreSQL's server processes and the machine as a whole are read from
 * /proc (Linux; elsewhere those figures are left out). PostgreSQL's figure is all of its processes,
 * so another client of the same server on the machine would count too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { machineTicks } from '../push/machine-load.js';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * Times this process was taken off a core while it could still run (`nonvoluntary_ctxt_switches`
 * of /proc/self/status): how often it waited for a core. 0 without /proc.
 */
export function ownPreemptions(): number {
  try {
    const line = /nonvoluntary_ctxt_switches:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
    return line ? Number(line[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far by this process, user and system. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** CPU ticks used so far by each running PostgreSQL server process, or undefined without /proc. */
export function postgresTicks(): Map<string, number> | undefined {
  const ticks = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      // After the name come the state (the line's 3rd field), ... utime (14th) and stime (15th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

/**
 * PostgreSQL's CPU seconds between two {@link postgresTicks} readings: what each process still
 * running used (a process started since counts from zero; one that ended is lost, its last ticks
 * unknown).
 */
export function postgresCpuSeconds(
  from: Map<string, number> | undefined,
  to: Map<string, number> | undefined,
): number | undefined {
  if (!from || !to) return undefined;
  let ticks = 0;
  for (const [pid, after] of to) ticks += Math.max(0, after - (from.get(pid) ?? 0));
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds the whole machine spent busy so far (all cores), or undefined without /proc. */
export function machineBusySeconds(): number | undefined {
  const ticks = machineTicks();
  return ticks && ticks.busy / TICKS_PER_SECOND;
}

/** CPU seconds by where they went, over one timed run. */
export interface CpuSplit {
  workers: number;
  /** The sending processes' preemptions ({@link ownPreemptions}), summed. */
  preempted: number;
  receiver: number;
  postgres?: number;
  machine?: number;
}

/**
 * Waits, up to `most` ms, until the machine has been nearly idle (under `cores` busy) for a
 * quarter of a second: other work on a shared machine disturbs a short run, and the runs before
 * (a worker still exiting, PostgreSQL writing behind) should have settled. Resolves with the ms
 * waited; at once where /proc is missing.
 */
export async function quietMachine(cores = 0.5, most = 10_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = machineBusySeconds();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const after = machineBusySeconds();
    const waited = performance.now() - started;
    if (before === undefined || after === undefined || (after - before) / 0.25 < cores || waited >= most)
      return waited;
  }
}
