/**
 * `latchkey release verify DIR --key KEY`: checks a release made by `pnpm release:artifacts`
 * against the publisher's public key given here (never one found in DIR): checksums, the
 * provenance signature, its subjects and the SBOM. One line per check; exit 5 on any failure.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import type { GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { createOutput } from '../output.js';
import { readEd25519PublicKey } from '../release/dsse.js';
import { verifyRelease } from '../release/verify-release.js';

/** Registers `release verify`. */
export function registerRelease(program: Command): void {
  const release = program.command('release').description('Check the integrity of a Latchkey release');
  release
    .command('verify')
    .description('Check SHA256SUMS, the signed provenance, its subjects and the SBOM of a release directory')
    .argument('<dir>', 'the release directory (tarballs, SHA256SUMS, sbom.cdx.json, provenance.intoto.jsonl)')
    .requiredOption('--key <file>', "the publisher's Ed25519 public key (SPKI PEM), obtained out of band")
    .action(async (dir: string, options: { key: string }, command: Command) => {
      const out = createOutput(Boolean(command.optsWithGlobals<GlobalOptions>().json));
      let pem: string;
      try {
        pem = readFileSync(options.key, 'utf8');
      } catch (error) {
        throw new CliError(`Cannot read the key ${options.key}: ${(error as NodeJS.ErrnoException).code}`);
      }
      let key: ReturnType<typeof readEd25519PublicKey>;
      try {
        key = readEd25519PublicKey(pem);
      } catch (error) {
        throw new CliError(
          `${options.key} is not an Ed25519 public key: ${(error as Error).message}`,
          EXIT.usage,
        );
      }
      try {
        if (!statSync(dir).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
      } catch (error) {
        throw new CliError(
          `Cannot read the release directory ${dir}: ${(error as NodeJS.ErrnoException).code}`,
        );
      }
      const checks = await verifyRelease(dir, key);
      const failed = checks.filter((c) => !c.ok);
      out.result({ ok: failed.length === 0, checks }, () => {
        for (const check of checks) {
          out.line(check.ok ? `PASS ${check.name}` : `FAIL ${check.name}: ${check.detail}`);
        }
      });
      if (failed.length > 0) {
        throw new CliError(
          `${dir} failed ${failed.map((c) => c.name).join(', ')}: do not install it.`,
          EXIT.verification,
        );
      }
    });
}
