/**
 * The release's check that a tarball ships what its package.json names: every condition of every
 * export, nested conditions, fallback arrays and subpath patterns, and main/module/types/bin; read
 * from a real gzipped tarball the way the release reads its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { exportSubpaths, missingTargets, tarballProblems } from '../release/package-targets.js';
import { readTarball } from '../release/tarball-contents.js';

/** The exports map every library had before publishConfig: a workspace-only source condition. */
const withSourceCondition = {
  name: '@latchkey/core',
  main: './dist/index.cjs',
  types: './dist/index.d.ts',
  exports: {
    '.': {
      '@latchkey/source': './src/index.ts',
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './client': {
      '@latchkey/source': './src/client/index.ts',
      import: { types: './dist/client/index.d.ts', default: './dist/client/index.js' },
      require: { types: './dist/client/index.d.cts', default: './dist/client/index.cjs' },
    },
    './package.json': './package.json',
  },
};
const shipped = new Set([
  'package.json',
  'README.md',
  ...['index', 'client/index'].flatMap((base) =>
    ['.js', '.cjs', '.d.ts', '.d.cts'].map((ext) => `dist/${base}${ext}`),
  ),
]);

describe('missingTargets', () => {
  it('names each source-condition target a tarball of dist files does not hold', () => {
    expect(missingTargets(withSourceCondition, shipped)).toEqual([
      'exports["."]["@latchkey/source"]: ./src/index.ts is not in the tarball',
      'exports["./client"]["@latchkey/source"]: ./src/client/index.ts is not in the tarball',
    ]);
  });

  it('passes the same map once the source condition is dropped', () => {
    const exports = JSON.parse(
      JSON.stringify(withSourceCondition.exports, (key, value) =>
        key === '@latchkey/source' ? undefined : value,
      ),
    );
    expect(missingTargets({ ...withSourceCondition, exports }, shipped)).toEqual([]);
  });

  it('walks nested conditions, fallback arrays, patterns, null exclusions, bin and the top-level fields', () => {
    const manifest = {
      main: './dist/main.cjs',
      module: './dist/index.js',
      typings: './dist/gone.d.ts',
      bin: { tool: './bin/tool.mjs', other: 'bin/other.mjs' },
      exports: {
        '.': {
          node: { import: { development: './dist/dev.js', default: './dist/index.js' } },
          browser: ['./dist/browser.js', './dist/index.js'],
        },
        './features/*': { import: './dist/features/*.js' },
        './missing/*': './dist/missing/*.js',
        './internal/*': null,
      },
    };
    const files = new Set(['dist/index.js', 'dist/features/a.js', 'bin/tool.mjs']);
    expect(missingTargets(manifest, files)).toEqual([
      'exports["."]["node"]["import"]["development"]: ./dist/dev.js is not in the tarball',
      'exports["."]["browser"][0]: ./dist/browser.js is not in the tarball',
      'exports["./missing/*"]: ./dist/missing/*.js is not in the tarball',
      'main: ./dist/main.cjs is not in the tarball',
      'typings: ./dist/gone.d.ts is not in the tarball',
      'bin["other"]: bin/other.mjs is not in the tarball',
    ]);
    expect(missingTargets({ exports: './dist/index.js' }, files)).toEqual([]);
  });

  it('lists the subpaths of any exports shape', () => {
    expect(exportSubpaths(withSourceCondition.exports)).toEqual(['.', './client', './package.json']);
    expect(exportSubpaths({ import: './a.js', require: './a.cjs' })).toEqual(['.']);
    expect(exportSubpaths('./a.js')).toEqual(['.']);
    expect(exportSubpaths(undefined)).toEqual([]);
  });
});

describe('tarballProblems', () => {
  it('names a subpath that publishConfig.exports forgot, and passes a faithful copy', () => {
    const { './client': _dropped, ...rest } = withSourceCondition.exports;
    const strip = (value: unknown) =>
      JSON.parse(JSON.stringify(value, (key, v) => (key === '@latchkey/source' ? undefined : v)));
    expect(
      tarballProblems({ manifest: { exports: strip(rest) }, files: shipped }, withSourceCondition),
    ).toEqual(['exports["./client"] is in package.json but not in the tarball']);
    expect(
      tarballProblems(
        { manifest: { exports: strip(withSourceCondition.exports) }, files: shipped },
        withSourceCondition,
      ),
    ).toEqual([]);
    expect(
      tarballProblems({ manifest: withSourceCondition, files: shipped }, withSourceCondition),
    ).toHaveLength(2);
  });
});

describe('readTarball', () => {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-targets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the packed manifest and file list, so a tarball naming unshipped sources fails', async () => {
    const root = join(dir, 'src-tree');
    for (const file of shipped) {
      mkdirSync(dirname(join(root, 'package', file)), { recursive: true });
      writeFileSync(
        join(root, 'package', file),
        file === 'package.json' ? JSON.stringify(withSourceCondition) : '',
      );
    }
    const tarball = join(dir, 'latchkey-core-0.1.0.tgz');
    await create({ file: tarball, cwd: root, gzip: true, portable: true }, ['package']);
    const contents = await readTarball(tarball);
    expect(contents.manifest).toEqual(withSourceCondition);
    expect(contents.files).toEqual(shipped);
    expect(missingTargets(contents.manifest, contents.files)).toHaveLength(2);
  });
});
