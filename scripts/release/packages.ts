/** The publishable packages of the workspace (every `packages/*` not marked private), built and packed. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tarballName } from '@latchkey/cli';

export interface PublishablePackage {
  name: string;
  version: string;
  /** Its directory, relative to the root (`packages/core`), as the lockfile names its importer. */
  path: string;
  license: string | undefined;
  description: string | undefined;
  tarball: string;
}

export function publishablePackages(root: string): PublishablePackage[] {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => join('packages', dir))
    .filter((path) => existsSync(join(root, path, 'package.json')))
    .map((path) => ({ path, json: JSON.parse(readFileSync(join(root, path, 'package.json'), 'utf8')) }))
    .filter(({ json }) => json.private !== true)
    .map(({ path, json }) => ({
      name: json.name as string,
      version: json.version as string,
      path,
      license: json.license as string | undefined,
      description: json.description as string | undefined,
      tarball: tarballName(json.name, json.version),
    }));
}

/**
 * Builds every package (tsup, and Vite for the dashboard's app) for production, whatever the
 * caller's NODE_ENV: under `test` or `development`, JSX compiles to its debug form, which carries
 * the build directory's absolute paths into the bundle.
 */
export function buildAll(root: string): void {
  execFileSync('pnpm', ['-r', '--filter', './packages/*', 'run', 'build'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * `pnpm pack` of one package into `out`: workspace ranges become the released versions, files get
 * a fixed time and order, so the same commit packs to the same bytes.
 */
export function pack(root: string, pkg: PublishablePackage, out: string): void {
  execFileSync('pnpm', ['pack', '--pack-destination', out], {
    cwd: join(root, pkg.path),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(join(out, pkg.tarball))) throw new Error(`pnpm pack did not write ${pkg.tarball}`);
}
