/** Raw HTTP helpers for adapter tests: what `fetch` cannot do, such as a chunked upload in two parts. */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * POSTs `first`, then (after `delayMs`) `rest`, with `Transfer-Encoding: chunked` and no
 * Content-Length, so the server can only find the size while streaming. Resolves with the answer.
 */
export function postChunked(
  base: string,
  path: string,
  headers: Record<string, string>,
  first: string,
  rest: string,
  delayMs = 0,
): Promise<{ status: number; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write(first);
    if (delayMs > 0) setTimeout(() => req.end(rest), delayMs);
    else req.end(rest);
  });
}

/** A listening test server: its base URL and a close that also drops keep-alive connections. */
export interface RunningServer {
  base: string;
  close: () => Promise<void>;
}

/** Waits until `server` (already told to listen on 127.0.0.1, port 0) listens, and wraps it. */
export async function running(server: http.Server): Promise<RunningServer> {
  if (!server.listening) await once(server, 'listening');
  // The suites' fetch keeps connections alive between requests. A test that blocks the event loop
  // (outside verifiers run as synchronous child processes) can outlast Node's 5 s idle timeout,
  // after which the server's timer and the client's (the server's hint less a second, on timers of
  // a second's grain) fire in either order: a request sent on a connection the server has just
  // closed fails with ECONNRESET. No test idles a minute, so the server never closes first.
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
