/**
 * HTTPS for the example servers: tokens and signed pushes travel only over TLS outside a laptop. Given
 * `LATCHKEY_TLS_CERT` and `LATCHKEY_TLS_KEY` (paths to PEM files, both or neither), a server
 * listens with TLS and prints `listening on https://localhost:PORT` (the name its certificate is
 * usually made for); without them it listens on plain HTTP on 127.0.0.1, for local use.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export interface ExampleTls {
  cert: Buffer;
  key: Buffer;
}

/** The certificate and key the environment names, or null for plain HTTP. */
export function readExampleTls(env: NodeJS.ProcessEnv = process.env): ExampleTls | null {
  const certFile = env['LATCHKEY_TLS_CERT'];
  const keyFile = env['LATCHKEY_TLS_KEY'];
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new Error('Give both LATCHKEY_TLS_CERT and LATCHKEY_TLS_KEY, or neither.');
  try {
    return { cert: readFileSync(certFile), key: readFileSync(keyFile) };
  } catch (error) {
    throw new Error(`Cannot read the TLS certificate or key: ${(error as Error).message}`);
  }
}

/** The line a server prints once it listens, which the tests and the demo wait for. */
export function listeningLine(address: AddressInfo | string | null, tls: ExampleTls | null): string {
  const port = typeof address === 'object' && address ? address.port : 0;
  return tls ? `listening on https://localhost:${port}` : `listening on http://127.0.0.1:${port}`;
}
