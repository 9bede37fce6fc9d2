#!/usr/bin/env node
// Builds every library with tsup, lints its package.json with publint, loads each export of the
// built package both as ESM (import) and as CJS (require), so a broken exports map fails the check,
// and runs @arethetypeswrong/cli on each packed tarball (node16 from CJS and ESM, and bundler
// resolution; node10, which ignores exports maps, is out of scope). `--root DIR --built` checks a
// checkout already built instead (the release test's clean checkout), and `--tarballs DIR` the
// tarballs already packed from it; without it each library is packed into a temporary directory.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const { values } = parseArgs({
  options: { root: { type: 'string' }, built: { type: 'boolean' }, tarballs: { type: 'string' } },
});
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
failures += await checkTypes();
if (failures > 0) {
  console.error(`${failures} package check(s) failed`);
  process.exit(1);
}
console.log('package checks: all good');

/** attw on every tarball, two at a time (each mostly waits on its own TypeScript); the failures. */
async function checkTypes() {
  const dir = values.tarballs ? resolve(values.tarballs) : mkdtempSync(join(tmpdir(), 'latchkey-packs-'));
  if (!values.tarballs) {
    for (const library of libraries) {
      if (JSON.parse(readFileSync(join(library, 'package.json'), 'utf8')).private) continue;
      execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: library, stdio: 'ignore' });
    }
  }
  const attw = join(new URL('..', import.meta.url).pathname, 'node_modules/.bin/attw');
  const queue = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
  let failed = 0;
  const worker = async () => {
    for (let tarball = queue.shift(); tarball; tarball = queue.shift()) {
      try {
        await promisify(execFile)(attw, ['--profile', 'node16', '--format', 'ascii', join(dir, tarball)]);
        console.log(`✓ ${tarball}: attw`);
      } catch (error) {
        failed++;
        console.error(`✗ ${tarball}: attw\n${error.stdout}${error.stderr}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (!values.tarballs) rmSync(dir, { recursive: true, force: true });
  return failed;
}
