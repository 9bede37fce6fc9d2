/**
 * How V8 compiles PGlite's WebAssembly module (9 MB of PostgreSQL). By default V8 compiles every
 * function with its baseline compiler (Liftoff), then compiles the hot ones again with its
 * optimizing compiler (TurboFan) on background threads: on the hono example that second tier held
 * about 90 MB at the peak of the start, and kept most of it. With Liftoff only, PGlite's start
 * holds about 100 MB less; in this repository's benches the store's pushes were no slower, since
 * the optimizing tier's compile time is paid while the process serves (bench/RESULTS.md).
 */
import { setFlagsFromString } from 'node:v8';

/** `liftoff` (the default): the baseline tier only; `optimizing`: V8's own tiering. */
export type PgliteWasmCompiler = 'liftoff' | 'optimizing';

/** The compilers {@link PgliteWasmCompiler} names. */
export const PGLITE_WASM_COMPILERS: readonly PgliteWasmCompiler[] = ['liftoff', 'optimizing'];

/**
 * Sets V8's WebAssembly tiering for what the process compiles from now on, before PGlite compiles
 * its module. The flag is the process's (V8 has no per-module setting): every WebAssembly module
 * compiled after it, such as the HTTP parser of Node's `fetch`, runs on the baseline tier too;
 * `optimizing` leaves V8's own setting as it is. Throws, naming the option, on another value.
 */
export function applyWasmCompiler(compiler: string = 'liftoff'): void {
  if (!(PGLITE_WASM_COMPILERS as readonly string[]).includes(compiler)) {
    throw new Error(`wasmCompiler must be "liftoff" or "optimizing", got "${compiler}"`);
  }
  if (compiler === 'liftoff') setFlagsFromString('--liftoff-only');
}
