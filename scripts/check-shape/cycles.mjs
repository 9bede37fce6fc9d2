// No import circles inside a package: dependency-cruiser reads the sources of every workspace package
// (`packages/<name>/src`, the dashboard's `app/src`, `examples/<name>/src` and `bench`) with the
// TypeScript program's own resolution, so `.js`-suffixed imports of `.ts` files resolve as tsc
// resolves them.
//
// Type-only imports count. A circle made of `import type` costs nothing at run time, but it still
// makes its modules one unit: neither side can be read, moved or published in another entry point
// without the other, and the circles the restructuring removed (the options types that lived in
// `core.ts`, imported back by the modules it wires) were type-only. Dynamic `import()` counts too.
// Tests are left out: nothing imports a test, so a test can close no circle.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import ts from 'typescript';

/**
 * Every source folder of the workspace's packages, relative to `root`: each `packages/<name>/src`
 * (and the dashboard's `app/src`), each `examples/<name>/src`, and the benches' package, `bench`.
 */
export function packageSourceFolders(root) {
  const folders = [];
  const isFolder = (folder) => {
    try {
      return statSync(join(root, folder)).isDirectory();
    } catch {
      return false;
    }
  };
  for (const parent of ['packages', 'examples']) {
    if (!isFolder(parent)) continue;
    for (const name of readdirSync(join(root, parent)).sort()) {
      for (const sub of ['src', 'app/src']) {
        if (isFolder(`${parent}/${name}/${sub}`)) folders.push(`${parent}/${name}/${sub}`);
      }
    }
  }
  if (isFolder('bench')) folders.push('bench');
  return folders;
}

/** Each circle once, as its modules in import order, starting from its alphabetically first one. */
function distinctCycles(violations) {
  const cycles = new Map();
  for (const violation of violations) {
    if (!violation.cycle) continue;
    const modules = violation.cycle.map((step) => (typeof step === 'string' ? step : step.name));
    const first = modules.indexOf([...modules].sort()[0]);
    const rotated = [...modules.slice(first), ...modules.slice(0, first)];
    cycles.set(rotated.join(' -> '), rotated);
  }
  return [...cycles.values()].sort((a, b) => a.join().localeCompare(b.join()));
}

/** `a -> b -> a`, with the package folder they share written once in front. */
function describeCycle(modules, folders) {
  const folder = folders.find((f) => modules.every((m) => m.startsWith(`${f}/`)));
  const names = folder ? modules.map((m) => m.slice(folder.length + 1)) : modules;
  return `import cycle${folder ? ` in ${folder}` : ''}: ${[...names, names[0]].join(' -> ')}`;
}

/**
 * One cruise of the packages' sources under `root` (tests left out), with the file-level circle rule
 * validated: its `modules` feed the folder rule too, so the tree is read once.
 */
export async function cruiseSources(root) {
  const folders = packageSourceFolders(root);
  const tsConfigFile = join(root, 'tsconfig.json');
  const tsConfig = ts.readConfigFile(tsConfigFile, ts.sys.readFile).config;
  const previous = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(
      folders,
      {
        tsPreCompilationDeps: true,
        tsConfig: { fileName: tsConfigFile },
        doNotFollow: { path: 'node_modules' },
        exclude: { path: ['node_modules', '/dist/', '\\.test\\.tsx?$', '/test/'] },
        validate: true,
        ruleSet: {
          forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }],
        },
      },
      { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] },
      { tsConfig },
    );
    return { folders, output: result.output };
  } finally {
    process.chdir(previous);
  }
}

/** One fault per import circle found in a cruise's modules (see {@link cruiseSources}). */
export function cycleFaultsOf({ folders, output }) {
  return distinctCycles(output.summary.violations).map((cycle) => describeCycle(cycle, folders));
}

/** One fault per import circle found in the packages' sources under `root`. */
export async function cycleFaults(root) {
  return cycleFaultsOf(await cruiseSources(root));
}
