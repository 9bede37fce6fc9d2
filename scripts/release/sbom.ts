/**
 * `sbom.cdx.json`: a CycloneDX 1.6 SBOM made with the CycloneDX library. The release itself is the
 * metadata component; every publishable package is a component depending on its resolved tree from
 * the lockfile, each third-party package with its purl, its SHA-512 from the lockfile's integrity
 * and, when installed, its declared license. Lists are sorted and the timestamp is the commit's, so
 * the same commit gives the same SBOM.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Enums, Models, Serialize, SPDX, Spec } from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import { type ResolvedPackage, resolveTree } from './lockfile.js';
import type { PublishablePackage } from './packages.js';
import type { ReleaseSource } from './source.js';

function purlOf(name: string, version: string): PackageURL {
  const [namespace, bare] = name.startsWith('@') ? (name.split('/') as [string, string]) : [undefined, name];
  return new PackageURL('npm', namespace, bare, version, undefined, undefined);
}

function licenseOf(text: string | undefined): Models.License | undefined {
  if (!text) return undefined;
  if (SPDX.isSupportedSpdxId(text)) return new Models.SpdxLicense(text);
  if (/\s(OR|AND|WITH)\s|^\(/.test(text)) return new Models.LicenseExpression(text);
  return new Models.NamedLicense(text);
}

/** The `license` an installed package declares, read from the store pnpm installed it into. */
function installedLicense(root: string, pkg: ResolvedPackage, store: readonly string[]): string | undefined {
  // pnpm names the directory `name@version`, with `_peer@…` appended when peers shaped it.
  const prefix = `${pkg.name.replace('/', '+')}@${pkg.version}`;
  const dir = store.find((d) => d === prefix || d.startsWith(`${prefix}_`));
  if (!dir) return undefined;
  try {
    const path = join(root, 'node_modules', '.pnpm', dir, 'node_modules', pkg.name, 'package.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as { license?: unknown };
    return typeof json.license === 'string' ? json.license : undefined;
  } catch {
    return undefined;
  }
}

function component(
  root: string,
  pkg: ResolvedPackage,
  ours: PublishablePackage | undefined,
  store: readonly string[],
): Models.Component {
  const purl = purlOf(pkg.name, pkg.version);
  const [group, name] = pkg.name.startsWith('@')
    ? (pkg.name.split('/') as [string, string])
    : [undefined, pkg.name];
  const made = new Models.Component(
    pkg.name === '@latchkey/cli' ? Enums.ComponentType.Application : Enums.ComponentType.Library,
    name,
    {
      group,
      version: pkg.version,
      purl: purl.toString(),
      bomRef: purl.toString(),
      description: ours?.description,
    },
  );
  const license = licenseOf(ours ? ours.license : installedLicense(root, pkg, store));
  if (license) made.licenses.add(license);
  const integrity = /^sha512-(.+)$/.exec(pkg.integrity ?? '');
  if (integrity)
    made.hashes.set(Enums.HashAlgorithm['SHA-512'], Buffer.from(integrity[1]!, 'base64').toString('hex'));
  return made;
}

/** The SBOM of the release, as JSON text. */
export function makeSbom(
  root: string,
  packages: readonly PublishablePackage[],
  source: ReleaseSource,
): string {
  const tree = resolveTree(
    root,
    packages.map((p) => p.path),
  );
  const ours = new Map(packages.map((p) => [p.path, p]));
  const components = new Map<string, Models.Component>();
  const store = readdirSync(join(root, 'node_modules', '.pnpm'));
  for (const [key, pkg] of tree) components.set(key, component(root, pkg, ours.get(key), store));
  for (const [key, pkg] of tree) {
    for (const dependency of pkg.dependsOn)
      components.get(key)!.dependencies.add(components.get(dependency)!.bomRef);
  }
  const version = packages.find((p) => p.name === '@latchkey/cli')?.version ?? packages[0]!.version;
  const release = new Models.Component(Enums.ComponentType.Application, 'latchkey', {
    version,
    bomRef: `latchkey-release@${version}`,
    description: `Latchkey ${version}, built from commit ${source.commit}`,
  });
  for (const pkg of packages) release.dependencies.add(components.get(pkg.path)!.bomRef);
  const bom = new Models.Bom({
    // Derived from what the SBOM describes, so a rebuild of the same commit gives the same document.
    serialNumber: `urn:uuid:${uuidFrom(`${source.commit}:${source.lockfileSha256}`)}`,
    metadata: new Models.Metadata({ timestamp: source.committedAt, component: release }),
  });
  bom.metadata.tools.components.add(
    new Models.Component(Enums.ComponentType.Library, 'cyclonedx-library', { group: '@cyclonedx' }),
  );
  for (const made of components.values()) bom.components.add(made);
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

/** A version-4-shaped UUID from a digest of `text`. */
function uuidFrom(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
