/**
 * The test every example server passes: start it exactly as a user would (`pnpm --dir examples/<name>
 * start`, from source), wait for its `listening on` line, talk to it over HTTP, then stop it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateDeviceKeyPair, generateKeyringKey, signPush } from '@latchkey/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLoopbackCertificate } from './loopback-certificate.js';

const TOKEN = 'lk_example_spawn_test_token_0000000000000000';

interface Started {
  child: ChildProcess;
  url: string;
  line: string;
  output: () => string;
}

/** pnpm as the running one was started (npx or a global install), else from PATH. */
function pnpm(args: string[]): [string, string[]] {
  const execPath = process.env['npm_execpath'];
  if (execPath && /pnpm/.test(execPath) && /\.c?js$/.test(execPath))
    return [process.execPath, [execPath, ...args]];
  return ['pnpm', args];
}

/**
 * Starts the example in its own process group and resolves with the URL it printed. `via: 'pnpm'`
 * runs its start script as a user would; `via: 'node'` runs the same source under the tsx loader in a
 * single process, so a signal reaches the server itself and its exit code is its own.
 */
export function startExample(
  name: string,
  env: Record<string, string>,
  via: 'pnpm' | 'node' = 'pnpm',
): Promise<Started> {
  const dir = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const [command, args] =
    via === 'pnpm'
      ? pnpm(['--dir', dir, 'start'])
      : [process.execPath, ['--conditions=@latchkey/source', '--import', tsx, 'src/server.ts']];
  const child = spawn(command, args, {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)|https:\/\/localhost:(\d+))$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, line: match[0], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`${name} exited with ${code}:\n${output}`), { code, output }));
    });
  });
}

/** Sends `signal` to the example's whole process group (pnpm, tsx and node) and waits for it to end. */
export async function stopExample(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Registers the example test for `examples/<name>`. */
export function describeExample(name: string): void {
  describe(`example server: ${name}`, () => {
    let started: Started;
    const send = (method: string, path: string, body?: unknown) =>
      fetch(started.url + path, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    beforeAll(async () => {
      started = await startExample(name, {
        PORT: '0',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        LATCHKEY_WEBHOOK_ALLOW_HOSTS: 'localhost',
      });
    });
    afterAll(async () => {
      if (started) await stopExample(started.child, 'SIGKILL');
    });

    it('prints the real bound URL on 127.0.0.1', () => {
      expect(started.line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(new URL(started.url).port)).toBeGreaterThan(0);
    });

    it('bootstraps organization acme with the admin token', async () => {
      const org = await send('GET', '/api/v2/organizations/acme');
      expect(org.status).toBe(200);
      expect(await org.json()).toMatchObject({ slug: 'acme' });
      const anonymous = await fetch(`${started.url}/api/v2/organizations/acme`);
      expect(anonymous.status).toBe(401);
    });

    it('serves the dashboard beside the API: its page on every route of the app, its built files, nothing else', async () => {
      for (const path of ['/dashboard', '/dashboard/settings/notifications/audit-webhooks']) {
        const page = await fetch(started.url + path);
        expect(page.status, path).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        const html = await page.text();
        expect(html).toContain('<meta name="latchkey-api" content="/api/v2" />');
        const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
        expect(script).toBeDefined();
        const js = await fetch(started.url + script!, { headers: { 'accept-encoding': 'gzip' } });
        expect(js.status).toBe(200);
        expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        expect(js.headers.get('cache-control')).toContain('immutable');
      }
      expect((await fetch(`${started.url}/dashboard/assets/missing.js`)).status).toBe(404);
      expect((await fetch(`${started.url}/dashboard`, { method: 'POST' })).status).toBe(405);
    });

    it('creates audit webhooks with its keyring, reaching private hosts only when allowlisted', async () => {
      expect(started.output()).toMatch(/^keyring: generated for this process$/m);
      const hooks = '/api/v2/organizations/acme/audit-webhooks';
      const created = await send('POST', hooks, { name: 'local', url: 'https://localhost:9443/hook' });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { signing_secret: string }).signing_secret).toMatch(/^whsec_/);
      const refused = await send('POST', hooks, { name: 'other', url: 'https://127.0.0.1:9443/hook' });
      expect(refused.status).toBe(400);
      // The delivery metrics, for Prometheus.
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      expect(text).toContain('# TYPE latchkey_audit_webhook_attempts gauge');
      expect(text).toMatch(
        /^latchkey_audit_webhook_status\{organization="acme",webhook="awh_\w+",name="local",status="active"\} 1$/m,
      );
    });

    it('accepts a signed push from an enrolled device and serves it back', async () => {
      expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
      const envs = '/api/v2/organizations/acme/projects/web/environments';
      expect((await send('POST', envs, { slug: 'prod' })).status).toBe(201);
      const keys = generateDeviceKeyPair();
      const enrolled = await send('POST', '/api/v2/organizations/acme/devices', {
        name: 'laptop',
        public_key: keys.publicKey,
      });
      expect(enrolled.status).toBe(201);
      const { id } = (await enrolled.json()) as { id: string };
      const address = { organization: 'acme', project: 'web', environment: 'prod' };
      const body = signPush(
        { device_id: id, changes: [{ key: 'API_KEY', value: 's3cret', if_version: 0 }] },
        address,
        keys.privateKey,
      );
      const pushed = await send('POST', `${envs}/prod/push`, body);
      expect(pushed.status).toBe(200);
      expect(await pushed.json()).toMatchObject({ versions: [{ key: 'API_KEY', version: 1 }] });
      const replayed = await send('POST', `${envs}/prod/push`, body);
      expect(replayed.status).toBe(409);
      const pulled = await send('GET', `${envs}/prod/secrets`);
      expect(await pulled.json()).toMatchObject({
        secrets: [{ key: 'API_KEY', value: 's3cret', version: 1 }],
      });
    });

    it('finishes a request in flight, then exits 0 on SIGTERM', async () => {
      const own = await startExample(name, { PORT: '0', LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN }, 'node');
      try {
        // A request whose body is still arriving when the signal comes must still be answered.
        let resolve!: () => void;
        const release = new Promise<void>((r) => {
          resolve = r;
        });
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('{"slug":'));
            await release;
            controller.enqueue(new TextEncoder().encode('"late"}'));
            controller.close();
          },
        });
        const inFlight = fetch(`${own.url}/api/v2/organizations/acme/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body,
          duplex: 'half',
        } as RequestInit);
        await new Promise((r) => setTimeout(r, 300));
        const exited = once(own.child, 'exit');
        own.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 100));
        resolve();
        expect((await inFlight).status).toBe(201);
        const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
        expect({ code, signal }).toEqual({ code: 0, signal: null });
        await expect(fetch(`${own.url}/api/v2/openapi.json`)).rejects.toThrow();
      } finally {
        await stopExample(own.child, 'SIGKILL');
      }
    });

    it('serves HTTPS with the certificate and key it is given, and refuses half a pair', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-tls-'));
      const certificate = makeLoopbackCertificate(dir);
      const secure = await startExample(
        name,
        {
          PORT: '0',
          LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
          LATCHKEY_TLS_CERT: certificate.certFile,
          LATCHKEY_TLS_KEY: certificate.keyFile,
        },
        'node',
      );
      try {
        expect(secure.url).toMatch(/^https:\/\/localhost:\d+$/);
        const answer = await new Promise<{ status: number; body: string; protocol: string }>(
          (resolve, reject) => {
            https
              .get(
                `${secure.url}/api/v2/me`,
                { ca: certificate.cert, headers: { authorization: `Bearer ${TOKEN}` } },
                (response) => {
                  const protocol = (response.socket as import('node:tls').TLSSocket).getProtocol() ?? '';
                  let body = '';
                  response.on('data', (chunk: Buffer) => {
                    body += chunk.toString('utf8');
                  });
                  response.on('end', () =>
                    resolve({
                      status: response.statusCode ?? 0,
                      body,
                      protocol,
                    }),
                  );
                },
              )
              .on('error', reject);
          },
        );
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ role: 'owner' });
        expect(answer.protocol).toMatch(/^TLSv1\.[23]$/);
      } finally {
        await stopExample(secure.child, 'SIGKILL');
      }
      const half = await startExample(
        name,
        { PORT: '0', LATCHKEY_TLS_CERT: certificate.certFile },
        'node',
      ).then(
        () => undefined,
        (e: { code?: number; output?: string }) => e,
      );
      expect(half?.output).toContain('Give both LATCHKEY_TLS_CERT and LATCHKEY_TLS_KEY');
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a store it does not have, with a clear message', async () => {
      const error = await startExample(name, { PORT: '0', LATCHKEY_STORE: 'redis://127.0.0.1' }, 'node').then(
        () => undefined,
        (e: { code?: number; output?: string }) => e,
      );
      expect(error?.code).not.toBe(0);
      expect(error?.code).not.toBeUndefined();
      expect(error?.output).toContain('LATCHKEY_STORE="redis://127.0.0.1" is not supported');
    });

    it('refuses to start on PostgreSQL without LATCHKEY_KEYRING, in one line that says how to make one', async () => {
      // Refused before it connects: a key made up here would seal what other instances cannot open.
      const error = await startExample(
        name,
        { PORT: '0', LATCHKEY_STORE: 'postgres://postgres@127.0.0.1:5432/test', LATCHKEY_KEYRING: '' },
        'node',
      ).then(
        () => undefined,
        (e: { code?: number; output?: string }) => e,
      );
      expect(error?.code).toBe(1);
      expect(error?.output).toMatch(
        /^LATCHKEY_KEYRING is required on PostgreSQL.*`latchkey keyring generate`.*node -e .*randomBytes\(32\).*$/m,
      );
      expect(error?.output).not.toMatch(/^\s+at /m);
    });

    it('refuses a keyring text it cannot read in one line, without a stack trace', async () => {
      for (const [keyring, message] of [
        ['k1:c2hvcnQ', 'LATCHKEY_KEYRING: keyring: key "k1" is not 32 bytes'],
        [`bad id:${generateKeyringKey()}`, 'LATCHKEY_KEYRING: keyring: key id "bad id" must be'],
        [`k1:${generateKeyringKey()},k1:${generateKeyringKey()}`, 'keyring: key id "k1" appears twice'],
      ] as const) {
        const error = await startExample(name, { PORT: '0', LATCHKEY_KEYRING: keyring }, 'node').then(
          () => undefined,
          (e: { code?: number; output?: string }) => e,
        );
        expect(error?.code).toBe(1);
        expect(error?.output).toContain(message);
        expect(error?.output).not.toMatch(/^\s+at /m);
        expect(error?.output).not.toContain(keyring.slice(3, 20));
      }
    });

    it('keeps its data in a PGlite directory across a restart, and moves it to a rotated key', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-example-'));
      const env = { PORT: '0', LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN, LATCHKEY_STORE: join(dir, 'data') };
      const envs = '/api/v2/organizations/acme/projects/kept/environments';
      try {
        const first = await startExample(name, env, 'node');
        expect(first.output()).toContain(`store: PGlite in ${join(dir, 'data')}`);
        const send = (path: string, body?: unknown) =>
          fetch(`${first.url}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        expect((await send('/api/v2/organizations/acme/projects', { slug: 'kept' })).status).toBe(201);
        expect((await send(envs, { slug: 'prod' })).status).toBe(201);
        const keys = generateDeviceKeyPair();
        const device = (await (
          await send('/api/v2/organizations/acme/devices', { name: 'laptop', public_key: keys.publicKey })
        ).json()) as { id: string };
        const push = signPush(
          { device_id: device.id, changes: [{ key: 'KEPT', value: 'sealed-at-rest' }] },
          { organization: 'acme', project: 'kept', environment: 'prod' },
          keys.privateKey,
        );
        expect((await send(`${envs}/prod/push`, push)).status).toBe(200);
        const exited = once(first.child, 'exit');
        first.child.kill('SIGTERM');
        expect((await exited)[0]).toBe(0);
        // Rotate: a new key first, the one made on first start (beside the data) after it.
        const keyring = `k2:${generateKeyringKey()},${readFileSync(join(dir, 'keyring.txt'), 'utf8').trim()}`;
        const second = await startExample(name, { ...env, LATCHKEY_KEYRING: keyring }, 'node');
        try {
          expect(second.output()).toContain('keyring: 1 value moved to the current key');
          const read = (path: string) =>
            fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) =>
              r.json(),
            );
          expect(await read('/api/v2/organizations/acme/projects')).toMatchObject({
            projects: [{ slug: 'kept' }],
          });
          expect(await read(`${envs}/prod/secrets`)).toMatchObject({
            secrets: [{ key: 'KEPT', value: 'sealed-at-rest', version: 1 }],
          });
        } finally {
          await stopExample(second.child, 'SIGKILL');
        }
        // keyring.txt deleted (and no LATCHKEY_KEYRING): it refuses, rather than make a key that
        // would not open the data, and names the key id the data needs.
        rmSync(join(dir, 'keyring.txt'));
        const refused = await startExample(name, env, 'node').then(
          () => undefined,
          (e: { code?: number; output?: string }) => e,
        );
        expect(refused?.code).toBe(1);
        expect(refused?.output).toMatch(/keyring\.txt is missing, and the data was sealed with key id "k2"/);
        expect(refused?.output).not.toMatch(/^\s+at /m);
        expect(existsSync(join(dir, 'keyring.txt'))).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
