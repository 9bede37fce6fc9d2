/**
 * The CLI against a server that does not play fair, on loopback: a key the server's rule refuses,
 * an answer without end or declared too large, one that never comes or comes a byte at a time,
 * bad JSON, an answer cut short, a refused connection, an untrusted certificate, a body the CLI
 * cannot make sense of. Each ends in one line on stderr and a non-zero exit, and nothing written.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-path.js';

const work = mkdtempSync(join(tmpdir(), 'latchkey-hostile-'));

/** What the server does for each test, by the first path segment the test's URL adds. */
type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;
const behaviours = new Map<string, Behaviour>();
/** Bytes the endless answer managed to write before the CLI hung up. */
let endlessWritten = 0;
const ENDLESS_BYTES = 64 * 1_048_576;

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const [, name] = /^\/([^/]+)/.exec(req.url ?? '') ?? [];
    const behaviour = behaviours.get(name ?? '');
    if (!behaviour) return void res.writeHead(404).end();
    behaviour(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `latchkey` in a fresh directory against the server's `name` behaviour; at most 20 s. */
function latchkey(name: string, args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(work, `${name}-`));
  const run = new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd,
        timeout: 20_000,
        env: {
          ...process.env,
          LATCHKEY_CONFIG_DIR: join(cwd, 'config'),
          LATCHKEY_URL: `${base}/${name}`,
          LATCHKEY_TOKEN: 'lk_hostile_server_test_token_0000000000000000',
          LATCHKEY_ORG: 'acme',
          LATCHKEY_PROJECT: 'web',
          LATCHKEY_ENV: 'prod',
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  return { cwd, run };
}

/** The run failed with exit 1 and exactly one line on stderr, `latchkey: …` matching `pattern`. */
function expectOneLine(result: Run, pattern: RegExp): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({
    code: 1,
    stderr: expect.stringMatching(pattern),
  });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^latchkey: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** Pulls from `name` and checks nothing was written: no `.env`, no state kept. */
async function pullFails(name: string, pattern: RegExp, env: Record<string, string> = {}) {
  const { cwd, run } = latchkey(name, ['pull'], env);
  const result = await run;
  expectOneLine(result, pattern);
  expect(existsSync(join(cwd, '.env'))).toBe(false);
  const state = join(cwd, 'config', 'state.json');
  if (existsSync(state)) expect(readFileSync(state, 'utf8')).not.toContain('"versions"');
}

const json = (res: ServerResponse, body: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const secret = (key: string, value = 'v') => ({ key, value, version: 1, updated_at: '2026-01-01T00:00:00Z' });

describe('the CLI against a hostile server', () => {
  it('refuses a key the server itself would refuse, before writing anything', async () => {
    behaviours.set('inject', (_req, res) => json(res, { secrets: [secret('OK'), secret('INJ\nEVIL', 'x')] }));
    await pullFails('inject', /invalid list of secrets: the key "INJ\\nEVIL" \(entry 1\) must start with/);
    behaviours.set('twice', (_req, res) => json(res, { secrets: [secret('A'), secret('A')] }));
    await pullFails('twice', /the key A is listed twice/);
    behaviours.set('shape', (_req, res) => json(res, { secrets: [{ key: 'A', value: 1, version: 1 }] }));
    await pullFails('shape', /the value of A is not a string/);
    // A well-behaved answer is written, so the refusals above are the check's and not the harness's.
    behaviours.set('fair', (_req, res) => json(res, { secrets: [secret('OK', 'fine')] }));
    const { cwd, run } = latchkey('fair', ['pull']);
    expect((await run).code).toBe(0);
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('OK=fine\n');
  });

  it('stops reading an answer past the size limit, and refuses one declared past it unread', async () => {
    behaviours.set('endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"secrets":[{"key":"BIG","version":1,"updated_at":"x","value":"');
      const chunk = 'x'.repeat(65_536);
      endlessWritten = 0;
      const more = () => {
        while (endlessWritten < ENDLESS_BYTES && !res.destroyed) {
          endlessWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}]}');
      };
      res.on('error', () => {});
      more();
    });
    await pullFails(
      'endless',
      /is over 1 MiB: not read \(raise the limit with --max-response-mb or LATCHKEY_MAX_RESPONSE_MB\)/,
      {
        LATCHKEY_MAX_RESPONSE_MB: '1',
      },
    );
    // It hung up long before the end (what the socket buffers took is the rest).
    expect(endlessWritten).toBeLessThan(ENDLESS_BYTES / 2);
    behaviours.set('declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1_048_576) });
      res.write('{"secrets":[');
    });
    await pullFails('declared', /is over 64 MiB: not read/);
    // The flag raises it.
    behaviours.set('two-mib', (_req, res) =>
      json(res, { secrets: [secret('BIG', 'y'.repeat(2 * 1_048_576))] }),
    );
    const { run } = latchkey('two-mib', ['pull', '--max-response-mb', '3']);
    expect((await run).code).toBe(0);
  });

  it('gives up on an answer that does not come, or comes too slowly, after the timeout', async () => {
    behaviours.set('silent', () => {});
    await pullFails(
      'silent',
      /No complete answer from http:\/\/127\.0\.0\.1:\d+ to GET \/organizations\/acme\/projects\/web\/environments\/prod\/secrets within 1 s \(raise it with --timeout or LATCHKEY_TIMEOUT\)/,
      {
        LATCHKEY_TIMEOUT: '1',
      },
    );
    behaviours.set('trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      res.on('close', () => clearInterval(drip));
    });
    const { run } = latchkey('trickle', ['pull', '--timeout', '1.5']);
    expectOneLine(await run, /No complete answer .* within 1\.5 s/);
    const bad = await latchkey('silent', ['pull', '--timeout', 'soon']).run;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('latchkey: --timeout must be a positive number of seconds, not "soon".\n');
  });

  it('says in one line when the answer is not JSON, is cut short, or cannot be read', async () => {
    behaviours.set('garbled', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"secrets": ['),
    );
    await pullFails('garbled', /The answer of http:\/\/127\.0\.0\.1:\d+ to GET \S+\/secrets is not JSON \(/);
    behaviours.set('cut', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"secrets":[', () => res.destroy());
    });
    await pullFails('cut', /The answer of http:\/\/127\.0\.0\.1:\d+ to GET \S+\/secrets broke off: /);
    behaviours.set('latin1', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x7b, 0xff, 0x7d])),
    );
    await pullFails('latin1', /is not UTF-8 text/);
    // Valid JSON of the wrong shape where the CLI expects an object: still one line, no stack.
    behaviours.set('null', (_req, res) => json(res, null));
    const { run } = latchkey('null', ['whoami']);
    expectOneLine(await run, /^latchkey: unexpected error: TypeError: /);
    // An error page a megabyte long is cut to a sentence.
    behaviours.set('shouting', (_req, res) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'internal_error', message: 'A'.repeat(1_048_576) } })),
    );
    const shouted = await latchkey('shouting', ['pull']).run;
    expectOneLine(shouted, /^latchkey: internal_error: A{1000} \(HTTP 500\)$/m);
  });

  it('says in one line when the connection is refused or its TLS fails', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await latchkey('none', ['pull'], { LATCHKEY_URL: `http://127.0.0.1:${port}` }).run;
    expectOneLine(
      refused,
      new RegExp(`^latchkey: Cannot reach http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );

    const certificate = makeLoopbackCertificate(mkdtempSync(join(work, 'tls-')));
    const tls = createTlsServer({ key: certificate.key, cert: certificate.cert }, (_req, res) =>
      json(res, { secrets: [] }),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://localhost:${(tls.address() as AddressInfo).port}`;
      const untrusted = await latchkey('tls', ['pull'], { LATCHKEY_URL: url }).run;
      expectOneLine(
        untrusted,
        /^latchkey: Cannot reach https:\/\/localhost:\d+: \w*CERT\w*: .*\(TLS failed: nothing was sent/,
      );
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
