/**
 * An audit webhook receiver on loopback HTTPS for the fault tests: it verifies every delivery with
 * @latchkey/webhook-verifier (whose replay cache refuses an event id seen before) and counts what it
 * applied, what came again (duplicates: the sender could not record a success and retried, which
 * at-least-once delivery allows) and what it refused.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createWebhookVerifier, responseStatusFor, type WebhookVerifier } from '@latchkey/webhook-verifier';

/** A running receiver. */
export interface CountingReceiver {
  /** `https://localhost:<port>` */
  readonly url: string;
  /** Event ids applied, each once, in arrival order. */
  readonly applied: Set<string>;
  readonly counts: { requests: number; duplicates: number; refused: number };
  /** Starts verifying with this signing secret (deliveries before it are refused). */
  useSecret(secret: string): void;
  close(): Promise<void>;
}

/** Starts a receiver with the loopback certificate `tls`. */
export async function startCountingReceiver(tls: {
  key: string | Buffer;
  cert: string | Buffer;
}): Promise<CountingReceiver> {
  let verifier: WebhookVerifier | null = null;
  const applied = new Set<string>();
  const counts = { requests: 0, duplicates: 0, refused: 0 };
  const server: Server = createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      counts.requests++;
      const result = verifier
        ? await verifier.safeVerify(Buffer.concat(chunks), request.headers)
        : ({ ok: false, code: 'signature_mismatch' } as const);
      if (result.ok) {
        applied.add(result.event.id);
        response.writeHead(204).end();
      } else if (result.code === 'replayed') {
        counts.duplicates++;
        // The 2xx that tells the sender it is done: the event was applied before.
        response.writeHead(responseStatusFor(result.code)).end();
      } else {
        counts.refused++;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}`,
    applied,
    counts,
    useSecret(secret) {
      verifier = createWebhookVerifier({ secret });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
