/**
 * `provenance.intoto.jsonl`: one DSSE envelope, signed with Ed25519 over the PAE bytes, of an
 * in-toto Statement v1 whose subjects are the tarballs (file name and SHA-256) and whose predicate
 * is SLSA provenance v1: what was built (the git commit, the lockfile's digest), how (the command,
 * Node and pnpm), by which builder, and when.
 */
import { randomUUID, sign } from 'node:crypto';
import {
  type DsseEnvelope,
  IN_TOTO_PAYLOAD_TYPE,
  keyIdOf,
  pae,
  SLSA_PROVENANCE_V1,
  STATEMENT_TYPE,
} from '@latchkey/cli';
import type { SigningKey } from './signing-key.js';
import type { ReleaseSource } from './source.js';

/** The build recipe this statement describes: `pnpm release:artifacts` of this workspace. */
export const BUILD_TYPE = 'urn:latchkey:build-type:pnpm-release-artifacts:v1';

export interface ProvenanceInput {
  subjects: { name: string; sha256: string }[];
  source: ReleaseSource;
  startedOn: Date;
  finishedOn: Date;
  pnpmVersion: string;
  /** Who ran the build: LATCHKEY_RELEASE_BUILDER_ID, else a local builder. */
  builderId: string;
}

export function statementOf(input: ProvenanceInput): Record<string, unknown> {
  const { source } = input;
  const repository = source.uri ?? 'git+local';
  return {
    _type: STATEMENT_TYPE,
    subject: input.subjects.map((s) => ({ name: s.name, digest: { sha256: s.sha256 } })),
    predicateType: SLSA_PROVENANCE_V1,
    predicate: {
      buildDefinition: {
        buildType: BUILD_TYPE,
        externalParameters: {
          command: 'pnpm release:artifacts',
          source: { uri: repository, digest: { gitCommit: source.commit } },
        },
        internalParameters: {
          node: process.version,
          pnpm: input.pnpmVersion,
        },
        resolvedDependencies: [
          { uri: `${repository}@${source.commit}`, digest: { gitCommit: source.commit } },
          { uri: 'pnpm-lock.yaml', digest: { sha256: source.lockfileSha256 } },
        ],
      },
      runDetails: {
        builder: { id: input.builderId },
        metadata: {
          invocationId: randomUUID(),
          startedOn: input.startedOn.toISOString(),
          finishedOn: input.finishedOn.toISOString(),
        },
      },
    },
  };
}

/** The statement in a DSSE envelope, signed with the release key; one line of JSON. */
export function signedEnvelope(statement: Record<string, unknown>, key: SigningKey): string {
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const envelope: DsseEnvelope = {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: payload.toString('base64'),
    signatures: [
      {
        keyid: keyIdOf(key.publicKey),
        sig: sign(null, pae(IN_TOTO_PAYLOAD_TYPE, payload), key.privateKey).toString('base64'),
      },
    ],
  };
  return `${JSON.stringify(envelope)}\n`;
}
