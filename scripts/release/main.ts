/**
 * `pnpm release:artifacts [--out DIR] [--key FILE]`: builds every publishable package of the
 * current commit (in a clean checkout of it, see `checkout.ts`) and writes the release into DIR
 * (default `release/`): the `pnpm pack` tarballs, `SHA256SUMS` (as `sha256sum -c` reads it),
 * `sbom.cdx.json` (CycloneDX 1.6),
 * `provenance.intoto.jsonl` (SLSA provenance v1 in a DSSE envelope signed with Ed25519) and
 * `release-key.pub`. Each tarball must ship every file its package.json names (see
 * `package-targets.ts`), or nothing is signed. The key is an Ed25519 PKCS#8 PEM file named by `--key` or
 * LATCHKEY_RELEASE_SIGNING_KEY; without one nothing is built. `latchkey release verify DIR --key
 * release-key.pub` checks the result.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELEASE_FILES } from '@latchkey/cli';
import { checkoutCommit } from './checkout.js';
import { normalizeTarball } from './normalize-tarball.js';
import { tarballProblems } from './package-targets.js';
import { buildAll, pack, publishablePackages } from './packages.js';
import { signedEnvelope, statementOf } from './provenance.js';
import { makeSbom } from './sbom.js';
import { loadSigningKey, type SigningKey } from './signing-key.js';
import { type ReleaseSource, readSource } from './source.js';
import { readTarball } from './tarball-contents.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(root, 'release') },
      key: { type: 'string' },
      // Leaves the built checkout in place and names it, for checks of the built packages.
      'keep-checkout': { type: 'boolean' },
    },
  });
  const key = loadSigningKey(values.key ?? (process.env['LATCHKEY_RELEASE_SIGNING_KEY'] || undefined));
  const out = resolve(values.out!);
  const startedOn = new Date();
  const source = readSource(root);
  if (source.dirty) log('note: uncommitted changes are not part of a release; it is built from the commit');
  const checkout = checkoutCommit(root, source.commit, log);
  let built = false;
  try {
    await buildRelease(checkout.dir, out, key, source, startedOn);
    built = true;
  } finally {
    if (built && values['keep-checkout']) log(`checkout kept at ${checkout.dir}`);
    else checkout.remove();
  }
}

/** Builds, packs, and writes every file of the release from the checkout at `from`. */
async function buildRelease(
  from: string,
  out: string,
  key: SigningKey,
  source: ReleaseSource,
  startedOn: Date,
): Promise<void> {
  const packages = publishablePackages(from);
  log(`building ${packages.length} packages…`);
  buildAll(from);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const subjects: { name: string; sha256: string }[] = [];
  for (const pkg of packages) {
    log(`packing ${pkg.name}@${pkg.version}…`);
    pack(from, pkg, out);
    await normalizeTarball(join(out, pkg.tarball));
    // A tarball that names a file it does not ship (a workspace-only source condition, a file left
    // out of `files`) would install but fail on import: the release stops here instead.
    const problems = tarballProblems(
      await readTarball(join(out, pkg.tarball)),
      JSON.parse(readFileSync(join(from, pkg.path, 'package.json'), 'utf8')),
    );
    if (problems.length > 0) throw new Error(`${pkg.tarball}: ${problems.join('; ')}`);
    subjects.push({
      name: pkg.tarball,
      sha256: createHash('sha256')
        .update(readFileSync(join(out, pkg.tarball)))
        .digest('hex'),
    });
  }
  subjects.sort((a, b) => (a.name < b.name ? -1 : 1));
  writeFileSync(join(out, RELEASE_FILES.checksums), subjects.map((s) => `${s.sha256}  ${s.name}\n`).join(''));
  log('writing the SBOM…');
  writeFileSync(join(out, RELEASE_FILES.sbom), makeSbom(from, packages, source));
  log('signing the provenance…');
  const statement = statementOf({
    subjects,
    source,
    startedOn,
    finishedOn: new Date(),
    pnpmVersion: execFileSync('pnpm', ['--version'], { encoding: 'utf8' }).trim(),
    builderId: process.env['LATCHKEY_RELEASE_BUILDER_ID'] || 'urn:latchkey:builder:local',
  });
  writeFileSync(join(out, RELEASE_FILES.provenance), signedEnvelope(statement, key));
  writeFileSync(join(out, RELEASE_FILES.publicKey), key.publicPem);
  log(`release written to ${out}: ${subjects.length} tarballs of commit ${source.commit.slice(0, 12)}`);
  log(`check it: latchkey release verify ${out} --key ${join(out, RELEASE_FILES.publicKey)}`);
}

try {
  await run();
} catch (error) {
  log(`release:artifacts: ${(error as Error).message}`);
  process.exit(1);
}
