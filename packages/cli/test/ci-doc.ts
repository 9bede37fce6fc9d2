/**
 * What the CI tests read from `docs/ci-without-stored-keys.md`, so the page stays true: the trust
 * rules (its JSON blocks), the GitHub Actions workflow and the GitLab job (its YAML blocks), and a
 * runner's side for each: the job's environment and its shell commands, run with bash and a
 * `latchkey` on PATH that is the CLI under test.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Run } from './cli-harness.js';
import { CLI } from './cli-path.js';

const PAGE = new URL('../../../docs/ci-without-stored-keys.md', import.meta.url);

/** The page's fenced blocks of `language`, in order. */
function blocks(language: string): string[] {
  const text = readFileSync(PAGE, 'utf8');
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}

/** A workload identity's body as the page writes it. */
export interface IdentityRule {
  name: string;
  issuer: string;
  audience: string;
  subject: string;
  claims: Record<string, string>;
  [field: string]: unknown;
}

/** The page's trust rules, by issuer: GitHub's and GitLab's. */
export function trustRules(): { github: IdentityRule; gitlab: IdentityRule } {
  const rules = blocks('json').map((b) => JSON.parse(b) as IdentityRule);
  const find = (issuer: string) => {
    const rule = rules.find((r) => r.issuer === issuer);
    if (!rule) throw new Error(`the page has no trust rule for ${issuer}`);
    return rule;
  };
  return { github: find('https://token.actions.githubusercontent.com'), gitlab: find('https://gitlab.com') };
}

interface Workflow {
  permissions: Record<string, string>;
  jobs: Record<string, { env: Record<string, string>; steps: { run?: string; uses?: string }[] }>;
}

interface GitLabJob {
  id_tokens: Record<string, { aud: string }>;
  variables: Record<string, string>;
  script: string[];
}

/** The page's YAML blocks: the GitHub Actions workflow (it has `jobs`) and the GitLab job. */
export function pipelines(): { github: Workflow; gitlab: GitLabJob } {
  const parsed = blocks('yaml').map((b) => parse(b) as Record<string, unknown>);
  const github = parsed.find((p) => 'jobs' in p) as Workflow | undefined;
  const gitlab = parsed.find((p) => !('jobs' in p));
  if (!github || !gitlab) throw new Error('the page needs a GitHub Actions workflow and a GitLab job');
  return { github, gitlab: Object.values(gitlab)[0] as GitLabJob };
}

/** Whether a command installs the CLI (the test runs the one under test instead). */
export const installs = (command: string) => /^\s*npm install\b/.test(command);

/** A directory holding `latchkey`: the CLI under test, in this Node. */
export function cliOnPath(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const launcher = join(dir, 'latchkey');
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(launcher, 0o755);
  return dir;
}

/**
 * Runs `script` with bash (`-e`: the first failing command fails it, as a runner's step does) in
 * `cwd`, with only `env` and a PATH that finds `latchkey` first: nothing of this process's
 * environment (no `LATCHKEY_*` of the test run) leaks in.
 */
export function runStep(script: string, env: Record<string, string>, cwd: string, bin: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-c', script],
      { cwd, env: { ...env, HOME: cwd, PATH: `${bin}:${process.env['PATH'] ?? ''}` } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
