import { defineConfig, type Options } from 'tsup';

/**
 * The build every library shares: ESM + CJS + types for Node 20, from `tsconfig.build.json`.
 * `node:` specifiers are kept as written, since Deno and Bun resolve built-ins by that prefix.
 * `extra` adds what one package needs beyond that.
 */
export function libraryConfig(entry: Record<string, string>, extra: Options = {}) {
  const options: Options = {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    tsconfig: 'tsconfig.build.json',
    removeNodeProtocol: false,
    ...extra,
  };
  return defineConfig(options);
}
