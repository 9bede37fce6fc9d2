/**
 * Reading a server process's memory from outside: RSS and its peak from `/proc/<pid>/status` (the
 * peak reset through `clear_refs` before a phase, so each phase has its own), and Node's heap and
 * PGlite's WebAssembly heap from the `memory: {…}` lines the example prints with `LATCHKEY_MEMORY_LOG`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

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
