/**
 * With `LATCHKEY_MEMORY_LOG` set to a number of milliseconds, the example prints its memory as one
 * line, `memory: {…}` (megabytes), at each step of its start and then every that many ms: what
 * `bench/footprint` reads to tell Node's heap from PGlite's WebAssembly heap. Figures only, off
 * unless asked for.
 */

/** What the store adds to the line: the size of PGlite's WebAssembly heap, when it is PGlite. */
let wasmHeapBytes: (() => number) | null = null;

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** The interval asked for, or null when the log is off. Throws on a value that is not a number. */
function interval(): number | null {
  const value = process.env['LATCHKEY_MEMORY_LOG'];
  if (!value) return null;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 10) {
    throw new Error(`LATCHKEY_MEMORY_LOG must be a number of milliseconds (10 or more), got "${value}".`);
  }
  return ms;
}

/** Prints one line for `stage` when the log is on. `wasm` (once given) is asked at every line. */
export function logMemory(stage: string, wasm?: () => number): void {
  if (wasm) wasmHeapBytes = wasm;
  if (interval() === null) return;
  const usage = process.memoryUsage();
  const line = {
    stage,
    rss: mb(usage.rss),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    wasmHeap: mb(wasmHeapBytes?.() ?? 0),
  };
  console.log(`memory: ${JSON.stringify(line)}`);
}

/** Prints a line every interval from now on (the timer never holds the process open). */
export function startMemoryLog(): void {
  const ms = interval();
  if (ms !== null) setInterval(() => logMemory('tick'), ms).unref();
}
