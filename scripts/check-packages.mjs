#!/usr/bin/env node
// Builds every library with tsup, lints its package.json with publint, and loads each export of the
// built package both as ESM (import) and as CJS (require), so a broken exports map fails the check.
// `--root DIR --built` checks a checkout already built instead (the release test's clean checkout).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' }, built: { type: 'boolean' } } });
const root = values.root ? resolve(values.root) : new URL('..', import.meta.url).pathname;
const packagesDir = join(root, 'packages');
const libraries = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((dir) => {
    try {
      return Boolean(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.build);
    } catch {
      return false;
    }
  });

if (!values.built) {
  const started = Date.now();
  console.log(`building ${libraries.length} packages…`);
  execFileSync('pnpm', ['-r', '--filter', './packages/*', 'run', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

let failures = 0;
for (const dir of libraries) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  try {
    execFileSync('pnpm', ['exec', 'publint', '--strict', dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    failures++;
    console.error(`✗ ${pkg.name}: publint\n${error.stdout}${error.stderr}`);
    continue;
  }
  const require = createRequire(join(dir, 'package.json'));
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target !== 'object') continue;
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    try {
      const esm = await import(pathToFileURL(join(dir, target.import.default)).href);
      const cjs = require(join(dir, target.require.default));
      const names = Object.keys(esm).sort().join(',');
      if (names !== Object.keys(cjs).sort().join(',') || names === '') {
        throw new Error(
          `ESM exports [${names}] differ from CJS exports [${Object.keys(cjs).sort().join(',')}]`,
        );
      }
    } catch (error) {
      failures++;
      console.error(`✗ ${specifier}: ${error.message}`);
      continue;
    }
    console.log(`✓ ${specifier}`);
  }
}
if (failures > 0) {
  console.error(`${failures} package check(s) failed`);
  process.exit(1);
}
console.log('package checks: all good');
