/**
 * What a packed package.json promises must be in its tarball: the target of every condition of
 * every export (nested conditions and fallback arrays too), and `main`, `module`, `types`,
 * `typings` and `bin`. A target no install could load (a workspace-only source file, a file the
 * `files` list leaves out) is named, so the release refuses it instead of publishing it.
 */

/** One file a manifest names: where it is named (`exports["."].import.default`) and the path. */
export interface NamedTarget {
  where: string;
  target: string;
}

const TOP_LEVEL_FIELDS = ['main', 'module', 'types', 'typings'] as const;

/** Every target of an `exports` value, whatever its shape (string, array, nested conditions). */
export function exportTargets(value: unknown, where = 'exports'): NamedTarget[] {
  if (typeof value === 'string') return [{ where, target: value }];
  if (Array.isArray(value)) return value.flatMap((entry, i) => exportTargets(entry, `${where}[${i}]`));
  // null excludes a subpath or a condition on purpose: nothing to ship.
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, entry]) =>
    exportTargets(entry, `${where}[${JSON.stringify(key)}]`),
  );
}

/** Every file a manifest names. */
export function namedTargets(manifest: Record<string, unknown>): NamedTarget[] {
  const targets = exportTargets(manifest['exports']);
  for (const field of TOP_LEVEL_FIELDS) {
    if (typeof manifest[field] === 'string') targets.push({ where: field, target: manifest[field] });
  }
  const bin = manifest['bin'];
  if (typeof bin === 'string') targets.push({ where: 'bin', target: bin });
  else if (bin && typeof bin === 'object') {
    for (const [name, target] of Object.entries(bin)) {
      if (typeof target === 'string') targets.push({ where: `bin[${JSON.stringify(name)}]`, target });
    }
  }
  return targets;
}

/** A path of the manifest as the tarball lists it under `package/`: `./dist/a.js` → `dist/a.js`. */
const normalize = (target: string) => target.replace(/^\.\//, '');

/** Whether `target` (which may hold one `*`, as subpath patterns do) names a file of `files`. */
function present(target: string, files: ReadonlySet<string>): boolean {
  const path = normalize(target);
  if (!path.includes('*')) return files.has(path);
  const [before, after] = [path.slice(0, path.indexOf('*')), path.slice(path.indexOf('*') + 1)];
  for (const file of files) {
    if (file.length > before.length + after.length && file.startsWith(before) && file.endsWith(after))
      return true;
  }
  return false;
}

/**
 * The targets of `manifest` that are not among `files` (paths relative to the package root), each
 * as one line: `exports["."]["@latchkey/source"]: ./src/index.ts is not in the tarball`.
 */
export function missingTargets(manifest: Record<string, unknown>, files: ReadonlySet<string>): string[] {
  return namedTargets(manifest)
    .filter(({ target }) => !present(target, files))
    .map(({ where, target }) => `${where}: ${target} is not in the tarball`);
}

/** The subpaths (`.`, `./client`, …) an `exports` value offers. */
export function exportSubpaths(exports: unknown): string[] {
  if (typeof exports === 'string' || Array.isArray(exports)) return ['.'];
  if (exports === null || typeof exports !== 'object') return [];
  const keys = Object.keys(exports);
  // An object of conditions (no key starts with ".") is the root subpath's.
  return keys.some((key) => key.startsWith('.')) ? keys.sort() : ['.'];
}

/**
 * Everything wrong with a packed package: targets it does not ship, and subpaths of the source
 * manifest's `exports` that the packed one (from `publishConfig.exports`) no longer offers.
 */
export function tarballProblems(
  packed: { manifest: Record<string, unknown>; files: ReadonlySet<string> },
  source: Record<string, unknown>,
): string[] {
  const offered = new Set(exportSubpaths(packed.manifest['exports']));
  return [
    ...missingTargets(packed.manifest, packed.files),
    ...exportSubpaths(source['exports'])
      .filter((subpath) => !offered.has(subpath))
      .map((subpath) => `exports[${JSON.stringify(subpath)}] is in package.json but not in the tarball`),
  ];
}
