/**
 * `pnpm release:artifacts` and `latchkey release verify`, with a throwaway key: the release is
 * checked with standard tools (`sha256sum -c`, `openssl pkeyutl -verify -rawin` over the DSSE PAE
 * bytes, the CycloneDX library's schema validation), built twice to the same SHA256SUMS, and
 * every kind of damage makes `release verify` fail on the check it breaks, with exit 5. The built
 * packages pass publint and attw, and the tarballs install with npm into an app on `pg` only and
 * one on PGlite only, each of which type-checks with `skipLibCheck: false` and runs a push.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { type DsseEnvelope, pae } from '@latchkey/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarballProblems } from '../release/package-targets.js';
import { readTarball } from '../release/tarball-contents.js';
import { type AppDriver, checkAndRun, installApp } from './installed-app.js';
import { keyPair, ROOT, releaseArtifacts, run, verify } from './release-run.js';

const work = mkdtempSync(join(tmpdir(), 'latchkey-release-'));

describe('release artifacts', () => {
  const first = join(work, 'first');
  const second = join(work, 'second');
  const key = keyPair();
  const keyFile = join(work, 'release-key.pem');
  const publicFile = join(work, 'trusted.pub');
  let builtCheckout = '';

  beforeAll(async () => {
    writeFileSync(keyFile, key.private, { mode: 0o600 });
    writeFileSync(publicFile, key.public);
    // The two builds run at once, each in its own clean checkout: two cores, half the wait. The
    // first checkout is kept for the check of its built packages.
    const builds = await Promise.all([
      releaseArtifacts(first, keyFile, ['--keep-checkout']),
      releaseArtifacts(second, keyFile),
    ]);
    for (const made of builds) {
      expect(made.stderr).toMatch(/release written to/);
      expect(made.code).toBe(0);
    }
    builtCheckout = /checkout kept at (.+)$/m.exec(builds[0]!.stderr)?.[1] ?? '';
  }, 600_000);

  afterAll(() => {
    if (builtCheckout) rmSync(join(builtCheckout, '..'), { recursive: true, force: true });
  });

  it('builds packages that pass publint and attw and load each export as ESM and CJS alike', async () => {
    expect(builtCheckout).not.toBe('');
    const checked = await run(process.execPath, [
      join(ROOT, 'scripts/check-packages.mjs'),
      '--root',
      builtCheckout,
      '--built',
      '--tarballs',
      first,
    ]);
    expect(checked.code, `${checked.stdout}\n${checked.stderr}`).toBe(0);
    expect(checked.stdout).toContain('package checks: all good');
    expect(checked.stdout).not.toContain('✗');
  }, 120_000);

  // A user of one driver installs, type-checks (skipLibCheck off) and runs without the other's
  // packages: the two apps install side by side, each in a directory of its own outside the workspace.
  it('installs into a pg-only app and a PGlite-only app that type-check and push through core.handle', async () => {
    const tarballs = new Map(
      readdirSync(first)
        .filter((f) => f.endsWith('.tgz'))
        .map((f) => [`@latchkey/${/^latchkey-(.+)-\d+\.\d+\.\d+\.tgz$/.exec(f)?.[1]}`, join(first, f)]),
    );
    const app = async (driver: AppDriver) => {
      const dir = mkdtempSync(join(tmpdir(), `latchkey-${driver}-app-`));
      try {
        await installApp(dir, driver, tarballs);
        const other = driver === 'pg' ? ['@electric-sql/pglite'] : ['pg', '@types/pg'];
        expect({
          driver,
          installed: other.filter((name) => existsSync(join(dir, 'node_modules', name))),
        }).toEqual({
          driver,
          installed: [],
        });
        const ran = await checkAndRun(dir, {
          DATABASE_URL: process.env['DATABASE_URL'] || 'postgres://postgres@127.0.0.1:5432/test',
          LATCHKEY_SCHEMA: `latchkey_app_${randomBytes(6).toString('hex')}`,
        });
        return JSON.parse(ran.stdout) as unknown;
      } catch (error) {
        const { message, stdout, stderr } = error as { message: string; stdout?: string; stderr?: string };
        throw new Error(`${driver} app: ${message}\n${stdout ?? ''}${stderr ?? ''}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const read = { secrets: [expect.objectContaining({ key: 'GREETING', value: 'hello', version: 1 })] };
    expect(await Promise.all([app('pg'), app('pglite')])).toEqual([read, read]);
  }, 180_000);

  it('writes the tarballs, SHA256SUMS that sha256sum -c accepts, the SBOM, the envelope and the key', () => {
    const files = readdirSync(first).sort();
    expect(files).toEqual(
      expect.arrayContaining(['SHA256SUMS', 'sbom.cdx.json', 'provenance.intoto.jsonl', 'release-key.pub']),
    );
    const tarballs = files.filter((f) => f.endsWith('.tgz'));
    expect(tarballs).toEqual(expect.arrayContaining(['latchkey-core-0.1.0.tgz', 'latchkey-cli-0.1.0.tgz']));
    expect(tarballs.some((f) => f.includes('test-utils'))).toBe(false);
    const checked = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: first, encoding: 'utf8' });
    expect(checked.trim().split('\n')).toEqual(tarballs.map((t) => `${t}: OK`));
    expect(readFileSync(join(first, 'release-key.pub'), 'utf8')).toBe(key.public);
    // A production build: no path of the machine that built it inside any tarball.
    for (const tarball of tarballs) {
      const listing = execFileSync('tar', ['-xzOf', join(first, tarball)], { maxBuffer: 64 << 20 });
      expect({ tarball, leaks: listing.includes(Buffer.from(tmpdir())) }).toEqual({ tarball, leaks: false });
    }
  });

  it('ships every file each tarball names, under every condition of every export', async () => {
    const tarballs = readdirSync(first).filter((f) => f.endsWith('.tgz'));
    for (const tarball of tarballs) {
      const packed = await readTarball(join(first, tarball));
      const source = JSON.parse(
        readFileSync(
          join(ROOT, 'packages', String(packed.manifest['name']).split('/')[1]!, 'package.json'),
          'utf8',
        ),
      ) as Record<string, unknown>;
      expect({ tarball, problems: tarballProblems(packed, source) }).toEqual({ tarball, problems: [] });
      // The workspace's source condition stays in the workspace.
      expect(JSON.stringify(packed.manifest['exports'])).not.toContain('@latchkey/source');
    }
  });

  it('builds the same tarballs twice from one commit', () => {
    expect(readFileSync(join(second, 'SHA256SUMS'), 'utf8')).toBe(
      readFileSync(join(first, 'SHA256SUMS'), 'utf8'),
    );
    expect(readFileSync(join(second, 'sbom.cdx.json'), 'utf8')).toBe(
      readFileSync(join(first, 'sbom.cdx.json'), 'utf8'),
    );
  });

  it('writes an SBOM the CycloneDX library validates, with every package and its dependency tree', async () => {
    const text = readFileSync(join(first, 'sbom.cdx.json'), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const bom = JSON.parse(text) as {
      specVersion: string;
      components: { name: string; group?: string; purl?: string; hashes?: unknown[] }[];
      dependencies: { ref: string; dependsOn?: string[] }[];
    };
    expect(bom.specVersion).toBe('1.6');
    const purls = bom.components.map((c) => c.purl);
    expect(purls).toEqual(expect.arrayContaining(['pkg:npm/%40latchkey/core@0.1.0', 'pkg:npm/zod@4.6.7']));
    const core = bom.dependencies.find((d) => d.ref === 'pkg:npm/%40latchkey/core@0.1.0')!;
    expect(core.dependsOn).toEqual(expect.arrayContaining(['pkg:npm/%40latchkey/webhook-verifier@0.1.0']));
    expect(bom.components.find((c) => c.name === 'zod')?.hashes).toHaveLength(1);
  });

  /** openssl's own Ed25519 verification of sig.bin over pae.bin (both in the work directory). */
  const opensslVerify = () =>
    execFileSync(
      'openssl',
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        publicFile,
        '-rawin',
        '-in',
        'pae.bin',
        '-sigfile',
        'sig.bin',
      ],
      { cwd: work, stdio: 'pipe' },
    );

  it('signs the provenance so openssl verifies it over the DSSE PAE bytes', () => {
    const envelope = JSON.parse(readFileSync(join(first, 'provenance.intoto.jsonl'), 'utf8')) as DsseEnvelope;
    const payload = Buffer.from(envelope.payload, 'base64');
    writeFileSync(join(work, 'pae.bin'), pae(envelope.payloadType, payload));
    writeFileSync(join(work, 'sig.bin'), Buffer.from(envelope.signatures[0]!.sig, 'base64'));
    const verified = opensslVerify().toString('utf8');
    expect(verified).toMatch(/Signature Verified Successfully/);
    const statement = JSON.parse(payload.toString('utf8')) as {
      _type: string;
      predicateType: string;
      subject: { name: string; digest: { sha256: string } }[];
      predicate: {
        buildDefinition: { resolvedDependencies: { uri: string; digest: Record<string, string> }[] };
      };
    };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://slsa.dev/provenance/v1');
    const sums = readFileSync(join(first, 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(statement.subject.map((s) => `${s.digest.sha256}  ${s.name}`)).toEqual(sums);
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    expect(statement.predicate.buildDefinition.resolvedDependencies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ digest: { gitCommit: commit } }),
        expect.objectContaining({
          uri: 'pnpm-lock.yaml',
          digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        }),
      ]),
    );
    // A changed byte in the signed bytes fails.
    writeFileSync(
      join(work, 'pae.bin'),
      pae(envelope.payloadType, Buffer.concat([payload, Buffer.from(' ')])),
    );
    expect(opensslVerify).toThrow();
  });

  it('passes release verify with the publisher key, one PASS line per check', async () => {
    const passed = await verify(first, publicFile);
    expect(passed.stdout.trim().split('\n')).toEqual([
      'PASS checksums',
      'PASS signature',
      'PASS subjects',
      'PASS sbom',
    ]);
    expect(passed.code).toBe(0);
    const nowhere = await verify(join(work, 'no-such-release'), publicFile);
    expect(nowhere.stderr).toMatch(
      /^latchkey: Cannot read the release directory .*no-such-release: ENOENT$/m,
    );
    expect(nowhere.code).toBe(1);
    const notAKey = await verify(first, join(first, 'SHA256SUMS'));
    expect(notAKey.stderr).toMatch(/is not an Ed25519 public key/);
    expect(notAKey.code).toBe(2);
  });

  /** A copy of the release, damaged by `change`, verified: which checks fail. */
  const damaged = async (change: (dir: string) => void, trusted = publicFile) => {
    const dir = mkdtempSync(join(work, 'damaged-'));
    cpSync(first, dir, { recursive: true });
    change(dir);
    const result = await verify(dir, trusted);
    expect(result.code).toBe(5);
    rmSync(dir, { recursive: true, force: true });
    return result.stdout
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('FAIL'))
      .map((l) => l.slice(5, l.indexOf(':')));
  };
  const flipByte = (file: string, at: (length: number) => number) => {
    const bytes = readFileSync(file);
    const i = at(bytes.length);
    bytes[i] = bytes[i]! ^ 1;
    writeFileSync(file, bytes);
  };

  // A dozen `release verify` runs, each compiling the CycloneDX schema: more than the default
  // timeout while the suite shares the machine.
  it('fails the right check, with exit 5, for every kind of damage', async () => {
    const core = 'latchkey-core-0.1.0.tgz';
    expect(await damaged((d) => flipByte(join(d, core), (n) => n - 30))).toEqual(['checksums', 'subjects']);
    expect(await damaged((d) => flipByte(join(d, 'SHA256SUMS'), () => 3))).toEqual(['checksums']);
    expect(
      await damaged((d) => {
        const file = join(d, 'sbom.cdx.json');
        writeFileSync(file, readFileSync(file, 'utf8').replace('"type": "library"', '"type": "librarx"'));
      }),
    ).toEqual(['sbom']);
    expect(
      await damaged((d) => {
        const file = join(d, 'provenance.intoto.jsonl');
        const envelope = JSON.parse(readFileSync(file, 'utf8')) as DsseEnvelope;
        const sig = Buffer.from(envelope.signatures[0]!.sig, 'base64');
        sig[10] = sig[10]! ^ 1;
        envelope.signatures[0]!.sig = sig.toString('base64');
        writeFileSync(file, `${JSON.stringify(envelope)}\n`);
      }),
    ).toEqual(['signature']);
    // A changed byte of the signed payload breaks the signature (whatever else it breaks).
    expect(
      await damaged((d) => {
        const file = join(d, 'provenance.intoto.jsonl');
        const envelope = JSON.parse(readFileSync(file, 'utf8')) as DsseEnvelope;
        envelope.payload = Buffer.from(
          Buffer.from(envelope.payload, 'base64').toString('utf8').replace('"sha256":"', '"sha256":"0'),
        ).toString('base64');
        writeFileSync(file, `${JSON.stringify(envelope)}\n`);
      }),
    ).toEqual(['signature', 'subjects']);
    expect(await damaged((d) => rmSync(join(d, core)))).toEqual(['checksums', 'subjects']);
    expect(await damaged((d) => writeFileSync(join(d, 'latchkey-extra-0.1.0.tgz'), 'not ours'))).toEqual([
      'checksums',
      'subjects',
      'sbom',
    ]);
    const other = keyPair();
    writeFileSync(join(work, 'other.pub'), other.public);
    expect(await damaged(() => undefined, join(work, 'other.pub'))).toEqual(['signature']);
    // The key inside the release is never trusted: a release re-signed with another key, its own
    // key beside it, fails against the publisher's key.
    const forged = mkdtempSync(join(work, 'forged-'));
    cpSync(first, forged, { recursive: true });
    const envelopeFile = join(forged, 'provenance.intoto.jsonl');
    const envelope = JSON.parse(readFileSync(envelopeFile, 'utf8')) as DsseEnvelope;
    const otherPrivate = createPrivateKey(other.private);
    envelope.signatures = [
      {
        keyid: 'forged',
        sig: sign(
          null,
          pae(envelope.payloadType, Buffer.from(envelope.payload, 'base64')),
          otherPrivate,
        ).toString('base64'),
      },
    ];
    writeFileSync(envelopeFile, `${JSON.stringify(envelope)}\n`);
    writeFileSync(join(forged, 'release-key.pub'), other.public);
    const forgedRun = await verify(forged, publicFile);
    expect(forgedRun.stdout).toMatch(/^FAIL signature: /m);
    expect(forgedRun.code).toBe(5);
    expect((await verify(forged, join(forged, 'release-key.pub'))).code).toBe(0);
  }, 120_000);

  it('refuses to build without a signing key, writing nothing', async () => {
    const out = join(work, 'keyless');
    const refused = await releaseArtifacts(out);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/No signing key: set LATCHKEY_RELEASE_SIGNING_KEY/);
    expect(existsSync(out)).toBe(false);
  });
});
