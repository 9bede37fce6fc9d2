/**
 * The demo's webhook receiver: an HTTPS server on localhost (the demo's self-signed certificate,
 * which the demo server trusts through NODE_EXTRA_CA_CERTS) that registers itself as an audit
 * webhook of `acme` with the `standard-webhooks-ed25519` scheme and verifies every delivery with
 * `@latchkey/webhook-verifier` and the organization's public key only (no secret), printing each
 * accepted event, its chain links and the tree head it carries checked by the verifier's chain
 * witness (a contradiction is printed as a `witness:` line). Webhooks it registered on earlier runs are disabled first (their port is gone).
 *
 * Env: LATCHKEY_URL (the server, e.g. http://127.0.0.1:3000), LATCHKEY_TOKEN (an owner or admin
 * token), RECEIVER_CERT and RECEIVER_KEY (PEM files).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createChainWitness, createWebhookVerifier, type WebhookVerifier } from '@latchkey/webhook-verifier';

const env = process.env as Record<string, string>;
const api = `${env['LATCHKEY_URL']}/api/v2/organizations/acme/audit-webhooks`;
const headers = { authorization: `Bearer ${env['LATCHKEY_TOKEN']}`, 'content-type': 'application/json' };
const NAME = 'demo receiver';
let verifier: WebhookVerifier | null = null;
// Links each delivery's chain fields and the tree head it carries to those seen before.
const witness = createChainWitness();

const server = createServer(
  { cert: readFileSync(env['RECEIVER_CERT']!), key: readFileSync(env['RECEIVER_KEY']!) },
  (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const result = verifier
        ? await verifier.safeVerify(body, request.headers)
        : { ok: false as const, code: 'not_ready', message: 'not registered yet' };
      if (!result.ok) {
        console.log(`refused a delivery: ${result.code} (${result.message})`);
        response.writeHead(400).end();
        return;
      }
      const event = result.event.json() as unknown as Parameters<typeof witness.addDelivered>[0] & {
        type: string;
        actor?: { id: string };
      };
      const issue = await witness.addDelivered(event);
      const tree = event['tree'] && !issue ? ', tree proof checked' : '';
      console.log(
        `verified ${event.type} ${result.event.id} (seq ${event.seq ?? '-'}, by ${event.actor?.id ?? '?'}${tree})`,
      );
      if (issue) console.log(`witness: ${issue.kind} at seq ${issue.seq}: ${issue.message}`);
      response.writeHead(204).end();
    });
  },
);

server.listen(0, '127.0.0.1', async () => {
  const url = `https://localhost:${(server.address() as AddressInfo).port}/latchkey`;
  try {
    const listed = (await (await fetch(api, { headers })).json()) as {
      audit_webhooks: { id: string; name: string; status: string }[];
    };
    for (const old of listed.audit_webhooks.filter((w) => w.name === NAME && w.status !== 'disabled')) {
      await fetch(`${api}/${old.id}/disable`, { method: 'POST', headers });
    }
    const created = await fetch(api, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: NAME, url, signature_scheme: 'standard-webhooks-ed25519' }),
    });
    const webhook = (await created.json()) as { id?: string; error?: { message: string } };
    if (!created.ok) throw new Error(webhook.error?.message ?? `status ${created.status}`);
    // The public keys anyone in the organization may read: the receiver holds no secret at all.
    const keys = (await (await fetch(`${api}/signing-keys`, { headers })).json()) as {
      signing_keys: { public_key: string }[];
    };
    const publicKey = keys.signing_keys.map((key) => key.public_key);
    verifier = createWebhookVerifier({ publicKey });
    console.log(`listening on ${url}, registered as audit webhook ${webhook.id}`);
    console.log(`verifying with the public key ${publicKey.join(', ')} only (standard-webhooks-ed25519)`);
  } catch (error) {
    console.log(`could not register as a webhook: ${(error as Error).message}`);
    process.exit(1);
  }
});

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
