// Checks the rule of the contributing guide that no package imports another's files by relative
// path: a relative import (static, dynamic, `export … from` or `require`) must stay inside the
// package that holds the importing file, its nearest folder with a package.json. Across packages the
// import names the package (`@latchkey/test-utils/spawn`), so it goes through the package's exports.
// The workspace root is a package too: `examples/*.ts`, `bench/` and `scripts/` reaching into
// `packages/` by `../` is a fault like any other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The folders whose code is checked, from the workspace root. */
export const CHECKED_FOLDERS = ['packages', 'examples', 'bench', 'scripts'];

/**
 * Files of the root that packages may import by relative path, with the reason: the one build
 * configuration every package's `tsup.config.ts` extends is tooling of the workspace, not code of
 * a package, and is never published.
 */
export const SHARED_ROOT_FILES = {
  'tsup.base.ts': "the workspace's build configuration, extended by each package's tsup.config.ts",
};

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'test-output']);

/** Every code file under `dir`, skipping dependencies and build output (and links, as Dirents). */
function codeFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : codeFilesUnder(path);
    return CODE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every code file under the checked folders, relative to `root`. */
export function codeFiles(root) {
  return CHECKED_FOLDERS.map((folder) => join(root, folder))
    .filter((dir) => existsSync(dir))
    .flatMap(codeFilesUnder)
    .map((path) => relative(root, path))
    .sort();
}

/** The folder of the package that holds `path` (relative to `root`): its nearest package.json. */
export function packageOf(root, path) {
  const full = resolve(root, path);
  let dir = existsSync(full) && statSync(full).isDirectory() ? full : dirname(full);
  const top = resolve(root);
  while (dir !== top && dir !== dirname(dir) && !existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return relative(top, dir) || '.';
}

/** The relative specifiers a file imports: static, dynamic, re-exports and `require` calls. */
export function relativeSpecifiers(text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((file) => file.fileName).filter((name) => /^\.\.?\//.test(name));
}

/** Every relative import that leaves its package, as `file: imports 'specifier' (package -> package)`. */
export function relativeImportFaults(root) {
  const faults = [];
  for (const path of codeFiles(root)) {
    const from = packageOf(root, path);
    for (const specifier of relativeSpecifiers(readFileSync(join(root, path), 'utf8'))) {
      const target = relative(resolve(root), resolve(root, dirname(path), specifier));
      const to = packageOf(root, target);
      if (to === from || (to === '.' && SHARED_ROOT_FILES[target.replace(/\.js$/, '.ts')])) continue;
      faults.push(`${path}: imports '${specifier}' from another package (${from} -> ${to})`);
    }
  }
  return faults;
}
