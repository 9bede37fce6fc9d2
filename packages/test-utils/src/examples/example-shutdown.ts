/** How an example server ends and how it serves TLS: each test starts a server of its own. */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { expect, it } from 'vitest';
import { makeLoopbackCertificate } from '../certificates/loopback-certificate.js';
import { EXAMPLE_TOKEN as TOKEN } from './client.js';
import { startExample, startExampleFailure, stopExample } from './start-example.js';

interface TlsAnswer {
  status: number;
  body: string;
  protocol: string;
}

/** A GET over HTTPS trusting only `ca`, with the TLS version it was answered over. */
function getOverTls(url: string, ca: Buffer, token: string): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers: { authorization: `Bearer ${token}` } }, (response) => {
        const protocol = (response.socket as TLSSocket).getProtocol() ?? '';
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, protocol }));
      })
      .on('error', reject);
  });
}

/** A request body whose second half is sent only when `release` is called. */
function heldBody(): { body: ReadableStream<Uint8Array>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode('{"slug":'));
      await released;
      controller.enqueue(new TextEncoder().encode('"late"}'));
      controller.close();
    },
  });
  return { body, release };
}

/** Registers the graceful-shutdown and TLS tests of the example `name`. */
export function describeShutdown(name: string): void {
  it('finishes a request in flight, then exits 0 on SIGTERM', async () => {
    const own = await startExample(name, { PORT: '0', LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN }, 'bundle');
    try {
      // A request whose body is still arriving when the signal comes must still be answered.
      const { body, release } = heldBody();
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
      release();
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
      'bundle',
    );
    try {
      expect(secure.url).toMatch(/^https:\/\/localhost:\d+$/);
      const answer = await getOverTls(`${secure.url}/api/v2/me`, certificate.cert, TOKEN);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ role: 'owner' });
      expect(answer.protocol).toMatch(/^TLSv1\.[23]$/);
    } finally {
      await stopExample(secure.child, 'SIGKILL');
    }
    const half = await startExampleFailure(name, { PORT: '0', LATCHKEY_TLS_CERT: certificate.certFile });
    expect(half?.output).toContain('Give both LATCHKEY_TLS_CERT and LATCHKEY_TLS_KEY');
    rmSync(dir, { recursive: true, force: true });
  });
}
