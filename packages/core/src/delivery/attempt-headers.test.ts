/**
 * An attempt sends a webhook's custom headers beside its scheme's signature headers, and the
 * signature headers always win: even a stored header named like one of them (refused at create, so
 * only a record written around the API could hold one) is left out, in whatever case it is named.
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { describe, expect, it } from 'vitest';
import { headerValueContext, secretContext } from '../keyring/contexts.js';
import { generateKeyringKey, parseKeyring, seal } from '../keyring/keyring.js';
import type { ClaimedDelivery } from '../store/ports/deliveries.js';
import { sendSigned } from './attempt.js';
import type { Transport } from './sending/sender.js';
import { newStandardSecret } from './signature-schemes/index.js';

const keyring = parseKeyring(`k1:${generateKeyringKey()}`);
const NOW = Date.parse('2026-11-25T12:00:00Z');

/** A transport that keeps what it was asked to send and answers 200. */
function capturing() {
  const sent: Parameters<Transport['send']>[0][] = [];
  const transport: Transport = {
    async send(request) {
      sent.push(request);
      return { ok: true, statusCode: 200, latencyMs: 1, error: null, retryAfterSeconds: null };
    },
    async close() {},
  };
  return { sent, transport };
}

describe('the headers of an attempt', () => {
  it('sends custom headers beside the standard-webhooks signature, which no custom header replaces', async () => {
    const id = 'awh_0000headers0000';
    const secret = newStandardSecret();
    const header = (name: string, value: string) => ({
      name,
      value_sealed: seal(keyring, value, headerValueContext(id, name)),
    });
    const webhook: ClaimedDelivery['webhook'] = {
      id,
      organization_id: 'org_1',
      name: 'intake',
      url: 'https://hooks.example/intake',
      secret_sealed: seal(keyring, secret, secretContext(id)),
      signature_scheme: 'standard-webhooks',
      previous_secret: null,
      headers: [
        header('X-Api-Key', 'intake-key'),
        header('Webhook-Signature', 'v1,forged'),
        header('WEBHOOK-ID', 'evt_forged'),
      ],
      client_certificate: null,
    };
    const { sent, transport } = capturing();
    const event = { id: 'evt_1', json: JSON.stringify({ id: 'evt_1', type: 'project_created' }) };
    await sendSigned({ keyring, transport, timeoutMs: 1_000, now: () => NOW }, webhook, event);

    const [request] = sent;
    expect(request!.headers['X-Api-Key']).toBe('intake-key');
    const names = Object.keys(request!.headers).map((name) => name.toLowerCase());
    expect(names.filter((name) => name === 'webhook-signature' || name === 'webhook-id')).toHaveLength(2);
    expect(request!.headers['webhook-id']).toBe('evt_1');
    expect(request!.headers['webhook-signature']).toMatch(/^v1,/);
    const verifier = createWebhookVerifier({ secret, now: () => NOW });
    expect((await verifier.safeVerify(request!.body, request!.headers)).ok).toBe(true);
  });
});
