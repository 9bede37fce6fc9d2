/**
 * The undici transport against a real HTTPS server on loopback with a throwaway certificate made by
 * the real openssl: success, redirects not followed, timeouts, Retry-After, broken connections, TLS
 * failures, keep-alive, and the SSRF guard refusing before anything connects.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciTransport, type Transport } from './sender.js';
import { parseAllowHosts } from './ssrf.js';

let server: Server;
let port: number;
let cert: string;
let connections = 0;
const seen: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'latchkey-sender-'));

beforeAll(async () => {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=receiver.test',
      '-addext',
      'subjectAltName=DNS:receiver.test,DNS:evil.test,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (request, response) => {
    seen.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      if (request.url === '/ok') response.writeHead(200).end('thanks');
      else if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/busy') response.writeHead(429, { 'retry-after': '7' }).end();
      else if (request.url === '/slow') setTimeout(() => response.writeHead(200).end(), 2_000);
      else if (request.url === '/cut') request.socket.destroy();
      else response.writeHead(404).end();
    });
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const resolve = async (host: string) =>
  host === 'receiver.test' || host === 'evil.test'
    ? [{ address: '127.0.0.1', family: 4 }]
    : Promise.reject(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));

const transport = (options: { trusted?: boolean; allow?: string } = {}): Transport =>
  createUndiciTransport({
    resolve,
    allowHosts: parseAllowHosts(options.allow ?? 'receiver.test'),
    ...(options.trusted === false ? {} : { tls: { ca: cert } }),
  });

const send = (t: Transport, path: string, host = 'receiver.test', timeoutMs = 1_000) =>
  t.send({
    url: `https://${host}:${port}${path}`,
    body: '{"id":"evt_1"}',
    headers: { 'Content-Type': 'application/json' },
    timeoutMs,
  });

describe('the undici transport', () => {
  it('delivers over HTTPS and reuses the connection', async () => {
    const t = transport();
    const before = connections;
    const first = await send(t, '/ok');
    // Once the first response is done (undici frees the connection a moment after the body ends).
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await send(t, '/ok');
    expect(first).toMatchObject({ ok: true, statusCode: 200, error: null, retryAfterSeconds: null });
    expect(first.latencyMs).toBeGreaterThan(0);
    expect(second.ok).toBe(true);
    expect(connections - before).toBe(1);
    await t.close();
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const t = transport();
    seen.length = 0;
    const result = await send(t, '/redirect');
    expect(result).toMatchObject({
      ok: false,
      statusCode: 302,
      error: { code: 'http_status', status_code: 302 },
    });
    expect(seen).toEqual(['/redirect']);
    await t.close();
  });

  it('reads Retry-After on 429', async () => {
    const t = transport();
    expect(await send(t, '/busy')).toMatchObject({ ok: false, statusCode: 429, retryAfterSeconds: 7 });
    await t.close();
  });

  it('fails a slow receiver with timeout, and a cut connection with connection_error', async () => {
    const t = transport();
    const slow = await send(t, '/slow', 'receiver.test', 200);
    expect(slow).toMatchObject({ ok: false, statusCode: null, error: { code: 'timeout' } });
    expect(slow.latencyMs).toBeGreaterThanOrEqual(150);
    expect(slow.latencyMs).toBeLessThan(1_500);
    expect(await send(t, '/cut')).toMatchObject({ ok: false, error: { code: 'connection_error' } });
    await t.close();
  });

  it('fails an untrusted certificate with tls_error', async () => {
    const t = transport({ trusted: false });
    const result = await send(t, '/ok');
    expect(result).toMatchObject({ ok: false, error: { code: 'tls_error' } });
    await t.close();
  });

  it('refuses, before connecting, a host that resolves to a private address or a private literal', async () => {
    const t = transport({ allow: '' });
    const before = connections;
    seen.length = 0;
    expect(await send(t, '/ok', 'evil.test')).toMatchObject({
      ok: false,
      statusCode: null,
      error: { code: 'blocked_target' },
    });
    expect(await send(t, '/ok', '127.0.0.1')).toMatchObject({
      ok: false,
      statusCode: null,
      error: { code: 'blocked_target' },
    });
    expect(connections).toBe(before);
    expect(seen).toEqual([]);
    await t.close();
  });

  it('refuses every non-public address form a resolver answers at delivery time, connecting to none', async () => {
    const forms = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
    ];
    const before = connections;
    seen.length = 0;
    for (const address of forms) {
      const rebinding = createUndiciTransport({
        resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
        allowHosts: parseAllowHosts(''),
        tls: { ca: cert },
      });
      const result = await send(rebinding, '/ok', 'public.example');
      expect(result.error?.code, address).toBe('blocked_target');
      await rebinding.close();
    }
    expect(connections).toBe(before);
    expect(seen).toEqual([]);
  });

  it('fails a host that does not resolve with connection_error', async () => {
    const t = transport();
    expect(await send(t, '/ok', 'nowhere.test')).toMatchObject({
      ok: false,
      error: { code: 'connection_error' },
    });
    await t.close();
  });
});
