/**
 * The real `latchkey` binary against a small server this test controls (the server is the thing a
 * CLI must not trust): the token reaches the server from a file or stdin but never the arguments of
 * a process the CLI starts (`--token` warns, and the launcher hands it on through the environment),
 * `config set token VALUE` is refused, plain http goes to loopback addresses only, and names and
 * messages from the server cannot drive the terminal. The token's tests run the launcher users run
 * (how it hands the token on is their point); the others run the CLI's sources as the test run
 * bundles them (one process instead of the launcher and tsx compiling the sources, the same code).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI } from './cli-path.js';

// The token's tests run the launcher a few times each, each run starting Node twice (it, then tsx).
vi.setConfig({ testTimeout: 120_000 });

const BIN = fileURLToPath(new URL('../bin/latchkey.mjs', import.meta.url));
const TOKEN = 'lk_token_that_must_never_be_an_argument_000000';
const work = mkdtempSync(join(tmpdir(), 'latchkey-token-'));
/** A preload that records the arguments of every Node process the binary starts (it and its child). */
const PRELOAD = join(work, 'record-argv.cjs');
writeFileSync(
  PRELOAD,
  `require('node:fs').appendFileSync(process.env.ARGV_LOG, JSON.stringify({ pid: process.pid, args: [...process.execArgv, ...process.argv] }) + '\\n');\n`,
);

/** A device name that sets the terminal's title, then fakes a second row. */
const EVIL_NAME = 'lap\x1b]0;pwned\x07top\r\ndev_fake0000  faked  admin  active';
const EVIL_MESSAGE = 'no such device\x1b[2J\r\nlatchkey: everything is fine\x07';

let server: Server;
let url = '';
/** The bearer tokens the server received. */
const received: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(String(request.headers.authorization ?? ''));
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/api/v2/me')
      send(200, { user: 'admin', role: 'owner', organization: { slug: 'acme', name: 'Acme' } });
    else if (request.url === '/api/v2/organizations/acme/devices')
      send(200, {
        devices: [
          { id: 'dev_evil0001', name: EVIL_NAME, user: 'mallory', status: 'active', created_at: 'today' },
          { id: 'dev_good0001', name: 'desktop', user: 'bob', status: 'active', created_at: 'today' },
        ],
      });
    else send(404, { error: { code: 'not_found', message: EVIL_MESSAGE, status: 404 } });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Starts `bin` (the launcher, or the CLI's bundle) with its own config directory and argument log;
 * stdin stays open until `end`.
 */
function start(name: string, args: string[], env: Record<string, string> = {}, bin = BIN) {
  const log = join(work, `${name}.argv.ndjson`);
  let child!: ChildProcess;
  const done = new Promise<Run>((resolve) => {
    child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: work,
        env: {
          ...process.env,
          LATCHKEY_CONFIG_DIR: join(work, name),
          LATCHKEY_URL: url,
          LATCHKEY_TOKEN: '',
          LATCHKEY_ORG: 'acme',
          NODE_OPTIONS: `--require ${PRELOAD}`,
          ARGV_LOG: log,
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  /** The arguments of every process started so far, by pid. */
  const processes = () => {
    if (!existsSync(log)) return [];
    const text = readFileSync(log, 'utf8');
    // A process may be appending its line right now: only whole lines count.
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { pid: number; args: string[] });
  };
  return { done, processes, end: (input = '') => child.stdin!.end(input) };
}

/** Runs `bin` to the end with `input` on stdin. */
const run = (name: string, args: string[], input = '', env: Record<string, string> = {}, bin = BIN) => {
  const started = start(name, args, env, bin);
  started.end(input);
  return started.done.then((result) => ({ ...result, processes: started.processes() }));
};

describe('the API token', () => {
  it('comes from stdin with --token-file -, and is in no process’s arguments while the CLI runs', async () => {
    const started = start('stdin', ['whoami', '--token-file', '-']);
    // The launcher and the child it runs the sources in: the child now waits for stdin.
    let ended = false;
    void started.done.then(() => {
      ended = true;
    });
    while (started.processes().length < 2 && !ended) await sleep(20);
    expect(ended).toBe(false);
    for (const { pid, args } of started.processes()) {
      expect(args.join(' ')).not.toContain(TOKEN);
      // What `ps` shows, read where it reads it.
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain(TOKEN);
    }
    received.length = 0;
    started.end(`${TOKEN}\n`);
    const result = await started.done;
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^admin \(owner\) in acme/);
    expect(received).toEqual([`Bearer ${TOKEN}`]);
  });

  it('comes from a file with --token-file F, or from LATCHKEY_TOKEN', async () => {
    writeFileSync(join(work, 'token.txt'), `${TOKEN}\n`, { mode: 0o600 });
    received.length = 0;
    expect((await run('file', ['whoami', '--token-file', join(work, 'token.txt')])).code).toBe(0);
    expect((await run('env', ['whoami'], '', { LATCHKEY_TOKEN: TOKEN })).code).toBe(0);
    expect(received).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    const empty = await run('empty', ['whoami', '--token-file', '-'], '\n');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('latchkey: No token in stdin.\n');
    const missing = await run('missing', ['whoami', '--token-file', join(work, 'nowhere.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read the token file');
  });

  it('is taken from --token with a warning, its value reaching the child through its environment, never its arguments', async () => {
    for (const args of [
      ['whoami', '--token', TOKEN],
      ['--token', TOKEN, 'device', 'list'],
      ['whoami', `--token=${TOKEN}`],
    ]) {
      received.length = 0;
      const taken = await run('flag', args);
      expect(taken.code).toBe(0);
      expect(taken.stderr).toMatch(/^warning: a token given as --token is visible to other users.*\(ps\)/);
      expect(taken.stderr).not.toContain(TOKEN);
      expect(received).toEqual([`Bearer ${TOKEN}`]);
      // The launcher got it from the person who typed it; the process it started did not.
      const [launcher, child] = taken.processes;
      expect(launcher?.args.join(' ')).toContain(TOKEN);
      expect(child?.args).toBeDefined();
      expect(child?.args.join(' ')).not.toContain(TOKEN);
      expect(child?.args.join(' ')).not.toContain('--token');
    }
  });

  it('is kept by `config set token` from stdin, never from its arguments', async () => {
    const setFromStdin = await run('configured', ['config', 'set', 'token'], `${TOKEN}\n`);
    expect(setFromStdin.code).toBe(0);
    expect(setFromStdin.stdout).not.toContain(TOKEN);
    expect(setFromStdin.processes.map((p) => p.args.join(' ')).join('\n')).not.toContain(TOKEN);
    const config = join(work, 'configured', 'config.json');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ token: TOKEN });
    received.length = 0;
    expect((await run('configured', ['whoami'])).code).toBe(0);
    expect(received).toEqual([`Bearer ${TOKEN}`]);
    const asArgument = await run('configured', ['config', 'set', 'token', 'lk_typed_in_the_shell']);
    expect(asArgument.code).toBe(2);
    expect(asArgument.stderr).toContain('config set token takes no value on the command line');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ token: TOKEN });
    writeFileSync(join(work, 'other.txt'), 'lk_from_a_file\n');
    expect(
      (await run('configured', ['config', 'set', 'token', '--token-file', join(work, 'other.txt')])).code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ token: 'lk_from_a_file' });
  });
});

describe('plain http', () => {
  it('goes to loopback addresses in their spellings, and to no name that only starts like one', async () => {
    const port = new URL(url).port;
    for (const loopback of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const result = await run('loopback', ['whoami', '--url', loopback], '', { LATCHKEY_TOKEN: TOKEN }, CLI);
      // [::1] may have no listener here (the server is on 127.0.0.1): it is tried, not refused.
      expect({ loopback, refused: result.stderr.includes('Refusing') }).toEqual({ loopback, refused: false });
      expect([0, 1]).toContain(result.code);
    }
    for (const name of ['http://127.example.com', `http://localhost.evil.com:${port}`]) {
      const refused = await run('loopback', ['whoami', '--url', name], '', { LATCHKEY_TOKEN: TOKEN }, CLI);
      expect({ name, code: refused.code }).toEqual({ name, code: 2 });
      expect(refused.stderr).toMatch(
        /^latchkey: Refusing plain http:\/\/ to .*: secrets travel only over TLS\. .*loopback address: localhost, 127\.0\.0\.0\/8 or \[::1\]/,
      );
    }
  });
});

describe('what the server says', () => {
  it('lists a device named with an OSC title change and CR LF as one clean row; --json keeps it exact', async () => {
    const listed = await run('terminal', ['device', 'list'], '', { LATCHKEY_TOKEN: TOKEN }, CLI);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(
      /^dev_evil0001\s+laptop dev_fake0000 {2}faked {2}admin {2}active\s+mallory\s+active/,
    );
    expect(lines[3]).toMatch(/^dev_good0001\s+desktop\s+bob/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(listed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const json = await run('terminal', ['device', 'list', '--json'], '', { LATCHKEY_TOKEN: TOKEN }, CLI);
    expect((JSON.parse(json.stdout) as { devices: { name: string }[] }).devices[0]!.name).toBe(EVIL_NAME);
  });

  it('prints an error message from the server on one clean line', async () => {
    const failed = await run(
      'terminal',
      ['device', 'revoke', 'dev_gone0001'],
      '',
      { LATCHKEY_TOKEN: TOKEN },
      CLI,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      'latchkey: not_found: no such device latchkey: everything is fine (HTTP 404)\n',
    );
  });
});
