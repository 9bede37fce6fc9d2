/**
 * The four checks of `latchkey release verify DIR`, each independent of the others so one damaged
 * file names the check it breaks:
 * - `checksums`: every line of SHA256SUMS matches its file, and every tarball is listed;
 * - `signature`: the DSSE envelope of provenance.intoto.jsonl verifies with the given key (never a
 *   key found in DIR) over the PAE bytes;
 * - `subjects`: the signed statement's subjects are exactly the tarballs, with their SHA-256;
 * - `sbom`: sbom.cdx.json is valid CycloneDX 1.6 (the CycloneDX library's strict JSON schema) and
 *   names the package of every tarball.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, verifyEnvelope } from './dsse.js';

export type CheckName = 'checksums' | 'signature' | 'subjects' | 'sbom';

export interface CheckResult {
  name: CheckName;
  ok: boolean;
  /** Why it failed, or what it covered. */
  detail: string;
}

/** The file names a release directory holds, besides its tarballs. */
export const RELEASE_FILES = {
  checksums: 'SHA256SUMS',
  sbom: 'sbom.cdx.json',
  provenance: 'provenance.intoto.jsonl',
  publicKey: 'release-key.pub',
} as const;

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const SLSA_PROVENANCE_V1 = 'https://slsa.dev/provenance/v1';

/** The file `npm pack` names a package's tarball: `@scope/name` 1.0.0 -> `scope-name-1.0.0.tgz`. */
export const tarballName = (name: string, version: string) =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A failed check carries its reason; `attempt` turns a thrown reason into one. */
async function attempt(name: CheckName, run: () => string | Promise<string>): Promise<CheckResult> {
  try {
    return { name, ok: true, detail: await run() };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
}

function read(dir: string, file: string): Buffer {
  const path = join(dir, file);
  if (!existsSync(path)) throw new Error(`${file} is missing`);
  return readFileSync(path);
}

/** Runs every check on the release in `dir`, trusting only `publicKey`. */
export async function verifyRelease(dir: string, publicKey: KeyObject): Promise<CheckResult[]> {
  const tarballs = new Map<string, string>();
  for (const file of readdirSync(dir).sort()) {
    if (file.endsWith('.tgz')) tarballs.set(file, sha256(readFileSync(join(dir, file))));
  }
  return [
    await attempt('checksums', () => checkChecksums(dir, tarballs)),
    await attempt('signature', () => {
      if (!verifyEnvelope(readEnvelope(dir), publicKey))
        throw new Error('the provenance envelope is not signed by this key');
      return 'the provenance envelope verifies with the given key';
    }),
    await attempt('subjects', () => checkSubjects(dir, tarballs)),
    await attempt('sbom', () => checkSbom(dir, tarballs)),
  ];
}

function checkChecksums(dir: string, tarballs: Map<string, string>): string {
  const lines = read(dir, RELEASE_FILES.checksums).toString('utf8').split('\n').filter(Boolean);
  if (lines.length === 0) throw new Error(`${RELEASE_FILES.checksums} is empty`);
  const listed = new Set<string>();
  for (const [i, line] of lines.entries()) {
    const match = /^([0-9a-f]{64}) [ *]([^/\\]+)$/.exec(line);
    if (!match || match[2] === '.' || match[2] === '..')
      throw new Error(`line ${i + 1} of ${RELEASE_FILES.checksums} is not "<sha256>  <file>"`);
    const [, digest, file] = match as unknown as [string, string, string];
    if (!existsSync(join(dir, file))) throw new Error(`${file} is listed but missing`);
    if (sha256(readFileSync(join(dir, file))) !== digest)
      throw new Error(`${file} does not match its checksum`);
    listed.add(file);
  }
  const unlisted = [...tarballs.keys()].filter((file) => !listed.has(file));
  if (unlisted.length > 0) throw new Error(`${unlisted.join(', ')} not listed`);
  return `${listed.size} files match`;
}

function readEnvelope(dir: string): DsseEnvelope {
  const lines = read(dir, RELEASE_FILES.provenance).toString('utf8').split('\n').filter(Boolean);
  if (lines.length !== 1) throw new Error(`${RELEASE_FILES.provenance} must hold one envelope`);
  let envelope: DsseEnvelope;
  try {
    envelope = JSON.parse(lines[0]!) as DsseEnvelope;
  } catch {
    throw new Error(`${RELEASE_FILES.provenance} is not JSON`);
  }
  if (
    envelope?.payloadType !== IN_TOTO_PAYLOAD_TYPE ||
    typeof envelope.payload !== 'string' ||
    !Array.isArray(envelope.signatures) ||
    envelope.signatures.length === 0
  ) {
    throw new Error(`${RELEASE_FILES.provenance} is not a signed DSSE envelope of an in-toto statement`);
  }
  return envelope;
}

function checkSubjects(dir: string, tarballs: Map<string, string>): string {
  const statement = JSON.parse(Buffer.from(readEnvelope(dir).payload, 'base64').toString('utf8')) as {
    _type?: string;
    predicateType?: string;
    subject?: { name?: string; digest?: { sha256?: string } }[];
  };
  if (statement._type !== STATEMENT_TYPE || statement.predicateType !== SLSA_PROVENANCE_V1) {
    throw new Error('the payload is not an in-toto v1 statement of SLSA provenance v1');
  }
  const seen = new Set<string>();
  for (const subject of statement.subject ?? []) {
    const name = subject.name ?? '';
    const actual = tarballs.get(name);
    if (actual === undefined) throw new Error(`subject ${name} has no tarball`);
    if (subject.digest?.sha256 !== actual) throw new Error(`${name} does not match its subject's digest`);
    seen.add(name);
  }
  const extra = [...tarballs.keys()].filter((file) => !seen.has(file));
  if (extra.length > 0) throw new Error(`${extra.join(', ')} is not a subject`);
  return `${seen.size} subjects, each a tarball with its digest`;
}

interface SbomComponent {
  name?: string;
  group?: string;
  version?: string;
}

async function checkSbom(dir: string, tarballs: Map<string, string>): Promise<string> {
  const text = read(dir, RELEASE_FILES.sbom).toString('utf8');
  // Loaded here, not with the CLI: the library and its JSON schemas take a quarter of a second to
  // load, which every other command would pay at start.
  const { Spec, Validation } = await import('@cyclonedx/cyclonedx-library');
  const invalid = await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text);
  if (invalid !== null) {
    throw new Error(`not valid CycloneDX 1.6: ${JSON.stringify(invalid).slice(0, 300)}`);
  }
  const bom = JSON.parse(text) as { components?: SbomComponent[]; metadata?: { component?: SbomComponent } };
  const named = new Set(
    [...(bom.components ?? []), ...(bom.metadata?.component ? [bom.metadata.component] : [])].map((c) =>
      tarballName(c.group ? `${c.group}/${c.name}` : (c.name ?? ''), c.version ?? ''),
    ),
  );
  const missing = [...tarballs.keys()].filter((file) => !named.has(file));
  if (missing.length > 0) throw new Error(`no component for ${missing.join(', ')}`);
  return `valid CycloneDX 1.6, ${bom.components?.length ?? 0} components`;
}
