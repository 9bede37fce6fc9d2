/** How the release test runs `pnpm release:artifacts`, `latchkey release verify` and other tools. */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLE } from './cli-bundle.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A throwaway Ed25519 key pair, PEM. */
export const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    private: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    public: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file` from the repository root; resolves with its exit code and output. */
export const run = (file: string, args: string[], env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

/** `pnpm release:artifacts` as the README runs it, with the key in the environment. */
export const releaseArtifacts = (out: string, key?: string, extra: string[] = []) =>
  run('npx', ['--yes', 'pnpm@10.34.8', 'run', '--silent', 'release:artifacts', '--out', out, ...extra], {
    LATCHKEY_RELEASE_SIGNING_KEY: key ?? '',
  });

/**
 * `latchkey release verify DIR --key KEY`, from the CLI's sources bundled for the tests (one plain
 * Node process a run, where the launcher starts two and compiles the sources: the test runs it a
 * dozen times). The launcher has its own tests.
 */
export const verify = (dir: string, key: string) =>
  run(process.execPath, [CLI_BUNDLE, 'release', 'verify', dir, '--key', key]);
