/**
 * `@latchkey/cli`: the `latchkey` command line (see its README). Importing it runs nothing;
 * `main(argv)` runs the CLI and resolves with its exit code.
 */

export { CliError, EXIT, type ExitCode } from './exit-codes.js';
export { main } from './main.js';
export {
  type DsseEnvelope,
  IN_TOTO_PAYLOAD_TYPE,
  keyIdOf,
  pae,
  readEd25519PublicKey,
  verifyEnvelope,
} from './release/dsse.js';
export {
  RELEASE_FILES,
  SLSA_PROVENANCE_V1,
  STATEMENT_TYPE,
  tarballName,
  verifyRelease,
} from './release/verify-release.js';
export { formatSecrets, parseSecrets, type SecretsFormat } from './secrets-file.js';
