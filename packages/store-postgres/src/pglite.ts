/**
 * `@latchkey/store-postgres/pglite`: the embedded driver, PGlite. Its own entry point, so an
 * application on a PostgreSQL server neither loads `@electric-sql/pglite` nor type-checks against
 * its types (which need `@types/emscripten`).
 *
 * ```ts
 * import { createPostgresStore } from '@latchkey/store-postgres';
 * import { pgliteDriver } from '@latchkey/store-postgres/pglite';
 *
 * const store = await createPostgresStore({ driver: await pgliteDriver('./data/latchkey') });
 * ```
 */

export { PGLITE_WASM_COMPILERS, type PgliteWasmCompiler } from './drivers/pglite/compiler.js';
export { PGLITE_MEMORY_DEFAULTS, type PgliteMemorySettings } from './drivers/pglite/memory.js';
export { type PgliteDriverOptions, type PgliteSqlDriver, pgliteDriver } from './drivers/pglite/pglite.js';
