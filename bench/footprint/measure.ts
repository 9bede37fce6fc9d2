/**
 * Reading a server process's memory from outside: RSS and its peak from `/proc/<pid>/status` (the
 * peak reset through `clear_refs` before a phase, so each phase has its own), and Node's heap and
 * PGlite's WebAssembly heap from the `memory: {…}` lines the example prints with `LATCHKEY_MEMORY_LOG`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** One `memory:` line of the example, in MB. */
export interface MemoryLine {
  stage: string;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  wasmHeap: number;
}

/** VmRSS and VmHWM of `pid`, in MB. */
export function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Resets the peak RSS of `pid` to its current RSS; false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Every `memory:` line in `output`, in order. */
export function memoryLines(output: string): MemoryLine[] {
  return [...output.matchAll(/^memory: (\{.*\})$/gm)].map((m) => JSON.parse(m[1]!) as MemoryLine);
}

/** Samples the RSS of `pid` every `ms` while `during` runs; resolves with its result and the highest RSS. */
export async function sampled<T>(
  pid: number,
  during: () => Promise<T>,
  ms = 20,
): Promise<{ result: T; max: number }> {
  let max = rssOf(pid).rss;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssOf(pid).rss);
    } catch {
      // The process ended: the result says why.
    }
  }, ms);
  try {
    return { result: await during(), max };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The process of the group `group` (a started example: pnpm, the shell of its start script, the
 * server) that is `node <script>`: the server itself, whose memory is measured.
 */
export function processRunning(group: number, script: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.length === 2 && /(^|\/)node$/.test(args[0]!) && args[1] === script) return Number(entry);
    } catch {
      // The process ended while it was read.
    }
  }
  throw new Error(`no process of group ${group} runs ${script}`);
}
