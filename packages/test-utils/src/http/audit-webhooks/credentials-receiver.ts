/**
 * A receiver that demands credentials, as SIEM intakes do: HTTPS on loopback with its own CA,
 * `requestCert` and `rejectUnauthorized` (a connection without a client certificate its CA issued
 * fails the TLS handshake), and a 401 for a request without the right `X-Api-Key`. Asked for full
 * handshakes it refuses session resumption (no tickets, no session cache) and closes every
 * connection after its answer, so each delivery costs the sender a handshake signed with its key,
 * as some intakes behind load balancers do. A delivery
 * engine sends to it through the production transport, pinned to loopback; deliveries owed to other
 * webhooks of the suite's store are answered without any network, so nothing a later test reads
 * changes.
 */

import { constants } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createDeliveryEngine, createUndiciTransport, parseAllowHosts } from '@latchkey/core/webhooks';
import {
  type MtlsCertificateOptions,
  type MtlsCertificates,
  makeMtlsCertificates,
} from '../../certificates/mtls-certificates.js';
import type { ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

/** One request the receiver took, accepted or not. */
export interface Arrival {
  path: string;
  /** The client certificate's common name. */
  client: string;
  apiKey: string | undefined;
  status: number;
  /** The body as received, and the request's headers (names in lower case), for verifying. */
  raw: string;
  headers: Record<string, string>;
}

/** The receiver and the engine that sends to it. */
export interface CredentialsReceiver {
  certificates: MtlsCertificates;
  /** `https://<public host>:<port>` */
  origin: string;
  /** The API key it demands. */
  apiKey: string;
  arrivals: Arrival[];
  /** TLS handshakes the receiver completed, and how many of them resumed a session. */
  handshakes: { full: number; resumed: number };
  /** Runs the engine until nothing is due. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

const answered = async () => ({
  ok: true,
  statusCode: 200,
  latencyMs: 1,
  error: null,
  retryAfterSeconds: null,
});

/** Options of {@link startCredentialsReceiver}. */
export interface CredentialsReceiverOptions extends MtlsCertificateOptions {
  /** Refuse session resumption and close each connection after its answer. */
  fullHandshakes?: boolean;
}

/** Starts the receiver and an engine over the suite's store. */
export async function startCredentialsReceiver(
  ctx: ConformanceContext,
  options: CredentialsReceiverOptions = {},
): Promise<CredentialsReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-mtls-'));
  const certificates = makeMtlsCertificates(dir, PUBLIC_HOST, options);
  const handshakes = { full: 0, resumed: 0 };
  const apiKey = `lk-intake-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const arrivals: Arrival[] = [];
  const server: Server = createServer(
    {
      key: certificates.server.key,
      cert: certificates.server.cert,
      ca: certificates.ca,
      requestCert: true,
      rejectUnauthorized: true,
      ...(options.fullHandshakes
        ? // No tickets, and no cache of sessions to resume by id.
          { secureOptions: constants.SSL_OP_NO_TICKET, sessionTimeout: 0 }
        : {}),
    },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const peer = (request.socket as TLSSocket).getPeerCertificate();
        const given = request.headers['x-api-key'];
        const status = given === apiKey ? 204 : 401;
        arrivals.push({
          path: request.url ?? '',
          client: String(peer.subject?.CN ?? ''),
          apiKey: typeof given === 'string' ? given : undefined,
          status,
          raw: Buffer.concat(chunks).toString('utf8'),
          headers: Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
          ),
        });
        response.writeHead(status, options.fullHandshakes ? { connection: 'close' } : {}).end();
      });
    },
  );
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.isSessionReused()) handshakes.resumed++;
    else handshakes.full++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `https://${PUBLIC_HOST}:${port}`;
  const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
  const real = createUndiciTransport({
    resolve,
    allowHosts: parseAllowHosts(PUBLIC_HOST),
    tls: { ca: certificates.ca },
  });
  const engine = createDeliveryEngine({
    store: ctx.core.store,
    keyring: ctx.keyring,
    webhooks: { resolve, allowHosts: PUBLIC_HOST, retry: { schedule: [0], jitter: 0 } },
    transport: {
      send: (request) => (request.url.startsWith(`${origin}/`) ? real.send(request) : answered()),
      close: () => real.close(),
    },
  });
  return {
    certificates,
    origin,
    apiKey,
    arrivals,
    handshakes,
    async drain() {
      for (let round = 0; round < 200 && (await engine.runOnce()) > 0; round++);
    },
    async close() {
      await engine.stop();
      await real.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
