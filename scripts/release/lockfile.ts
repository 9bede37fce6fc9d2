/**
 * The resolved dependency tree of each publishable package, read from `pnpm-lock.yaml` (v9): its
 * importer's production and optional dependencies, then each resolved package's own, to the leaves.
 * Workspace links resolve to the workspace package; peer suffixes (`x@1.0.0(y@2.0.0)`) are kept to
 * follow the exact snapshot and dropped from the component's identity.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';

interface Lockfile {
  lockfileVersion: string;
  importers: Record<string, { dependencies?: Deps; optionalDependencies?: Deps }>;
  packages?: Record<string, { resolution?: { integrity?: string } }>;
  snapshots?: Record<
    string,
    { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
  >;
}
type Deps = Record<string, { specifier: string; version: string }>;

/** One resolved package: `name@version`, its integrity, and what it depends on (by key). */
export interface ResolvedPackage {
  key: string;
  name: string;
  version: string;
  /** `sha512-…` from the lockfile, when it records one. */
  integrity: string | undefined;
  /** Keys of the packages it depends on; workspace packages are keyed by their importer path. */
  dependsOn: Set<string>;
  /** The importer path for a workspace package. */
  workspacePath?: string;
}

/** `name@1.0.0(peer@2)` -> `name@1.0.0` */
const identity = (snapshotKey: string) => snapshotKey.replace(/\(.*$/, '');
const nameOf = (key: string) => key.slice(0, key.lastIndexOf('@'));

/** Every package reachable from the importers at `paths`, keyed by `name@version` or importer path. */
export function resolveTree(root: string, paths: readonly string[]): Map<string, ResolvedPackage> {
  const lock = parse(readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8')) as Lockfile;
  if (!String(lock.lockfileVersion).startsWith('9')) {
    throw new Error(`pnpm-lock.yaml is lockfile version ${lock.lockfileVersion}; this reads version 9.`);
  }
  const out = new Map<string, ResolvedPackage>();
  const visitSnapshot = (snapshotKey: string): string => {
    const key = identity(snapshotKey);
    if (out.has(key)) return key;
    const resolved: ResolvedPackage = {
      key,
      name: nameOf(key),
      version: key.slice(key.lastIndexOf('@') + 1),
      integrity: lock.packages?.[key]?.resolution?.integrity,
      dependsOn: new Set(),
    };
    out.set(key, resolved);
    const snapshot = lock.snapshots?.[snapshotKey] ?? {};
    for (const [name, version] of Object.entries({
      ...snapshot.dependencies,
      ...snapshot.optionalDependencies,
    })) {
      resolved.dependsOn.add(visitSnapshot(`${name}@${version}`));
    }
    return key;
  };
  const visitImporter = (path: string): string => {
    if (out.has(path)) return path;
    const importer = lock.importers[path];
    if (!importer) throw new Error(`pnpm-lock.yaml has no importer ${path}: run pnpm install.`);
    const json = JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const resolved: ResolvedPackage = {
      key: path,
      name: json.name,
      version: json.version,
      integrity: undefined,
      dependsOn: new Set(),
      workspacePath: path,
    };
    out.set(path, resolved);
    for (const [name, { version }] of Object.entries({
      ...importer.dependencies,
      ...importer.optionalDependencies,
    })) {
      resolved.dependsOn.add(
        version.startsWith('link:')
          ? visitImporter(posix.normalize(posix.join(path, version.slice('link:'.length))))
          : visitSnapshot(`${name}@${version}`),
      );
    }
    return path;
  };
  for (const path of paths) visitImporter(path);
  return out;
}
