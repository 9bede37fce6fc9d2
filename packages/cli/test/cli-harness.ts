/**
 * What the CLI's end-to-end tests stand on: the Express example on a fresh store with project
 * `web`, environment `prod` and a developer granted it, and the real `latchkey` CLI run as one
 * "machine" or another (each its own config directory), with what it printed and its exit code.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { afterAll, beforeAll, expect } from 'vitest';
import { CLI } from './cli-path.js';

export const TOKEN = 'lk_cli_end_to_end_test_token_00000000000000';

/** Why Debian's age tool cannot check our backups here, or null. In CI its absence is a failure. */
export const ageMissing = (() => {
  try {
    execFileSync('age', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    if (process.env['CI']) throw new Error('The CLI tests need the age tool (Debian: apt-get install age).');
    return 'no age tool on PATH (Debian: apt-get install age)';
  }
})();

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Starts the server before the file's tests (and stops it after); returns what they use.
 * `serverEnv` adds to the server's environment, read when it starts (after the hooks before it).
 */
export function useCliServer(serverEnv: () => Record<string, string> = () => ({})) {
  let server: Awaited<ReturnType<typeof startExample>>;
  const work = mkdtempSync(join(tmpdir(), 'latchkey-cli-'));
  const state = { developerToken: '' };

  /** Runs the binary as one machine (its own config directory). */
  const machine = (name: string, token = TOKEN, extra: Record<string, string> = {}, input = '') => {
    const config = join(work, name);
    return (...args: string[]): Promise<Run> =>
      new Promise((resolve) => {
        const child = execFile(
          process.execPath,
          [CLI, ...args],
          {
            cwd: work,
            env: {
              ...process.env,
              LATCHKEY_CONFIG_DIR: config,
              LATCHKEY_URL: server.url,
              LATCHKEY_TOKEN: token,
              LATCHKEY_ORG: 'acme',
              LATCHKEY_PROJECT: 'web',
              LATCHKEY_ENV: 'prod',
              ...extra,
            },
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
        // What a person would type at the prompts; then stdin ends, as a pipe does.
        child.stdin!.end(input);
      });
  };
  const api = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const response = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const file = (name: string) => join(work, name);

  beforeAll(async () => {
    server = await startExample(
      'express',
      {
        PORT: '0',
        LATCHKEY_STORE: 'memory',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        LATCHKEY_DATA_DIR: join(work, 'server'),
        // Webhooks to a loopback receiver may be created (backups carry them).
        LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
        ...serverEnv(),
      },
      'bundle',
    );
    expect((await api('POST', '/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
    expect(
      (await api('POST', '/organizations/acme/projects/web/environments', { slug: 'prod' })).status,
    ).toBe(201);
    expect(
      (
        await api('POST', '/organizations/acme/members', {
          user: 'dev',
          role: 'developer',
          grants: [{ project: 'web', environments: ['prod'] }],
        })
      ).status,
    ).toBe(201);
    state.developerToken = (await api('POST', '/organizations/acme/tokens', { user: 'dev', name: 'cli' }))
      .json['token'] as string;
  }, 60_000);

  afterAll(async () => {
    if (server) await stopExample(server.child, 'SIGKILL');
  });

  /** What the server printed so far, its log lines. */
  const serverOutput = () => server.output();
  return { machine, api, file, work, state, url: () => server.url, serverOutput };
}
