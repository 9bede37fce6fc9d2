import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { createWebhookVerifier as createWebVerifier } from '@latchkey/webhook-verifier/web';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, signDelivery, signEventJson } from './signing.js';

describe('signDelivery', () => {
  it('produces deliveries the receiver verifier accepts, on both engines', async () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const now = 1_795_000_000;
    const event = { type: 'push_applied', data: { keys: ['A'] }, id: 'evt_1' };
    const delivery = signDelivery(event, secret, now);
    expect(delivery.body.startsWith('{"id":"evt_1",')).toBe(true);
    expect(delivery.headers['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(delivery.headers['X-Service-Timestamp']).toBe(String(now));
    for (const create of [createWebhookVerifier, createWebVerifier]) {
      const verifier = create({ secret, now: () => now * 1000 });
      const verified = await verifier.verify(delivery.body, delivery.headers);
      expect(verified.id).toBe('evt_1');
      expect(verified.json()).toEqual({ id: 'evt_1', type: 'push_applied', data: { keys: ['A'] } });
    }
  });

  it('is refused by a verifier holding another secret or after the body changed', async () => {
    const delivery = signDelivery({ id: 'evt_2' }, newSigningSecret(), 1_795_000_000);
    const stranger = createWebhookVerifier({ secret: newSigningSecret(), now: () => 1_795_000_000_000 });
    expect(await stranger.safeVerify(delivery.body, delivery.headers)).toMatchObject({
      ok: false,
      code: 'signature_mismatch',
    });
  });
});

describe('signEventJson', () => {
  it('sends stored JSON with id first byte for byte, and puts id first otherwise', async () => {
    const secret = newSigningSecret();
    const stored = '{"id":"evt_3","type":"x","data":{"b":1,"a":[1.50,"\\u00e9"]}}';
    const asStored = signEventJson(stored, 'evt_3', secret, 1_795_000_000);
    expect(asStored.body).toBe(stored);
    const reordered = signEventJson('{"type":"x","id":"evt_4"}', 'evt_4', secret, 1_795_000_000);
    expect(reordered.body).toBe('{"id":"evt_4","type":"x"}');
    const verifier = createWebhookVerifier({ secret, now: () => 1_795_000_000_000 });
    expect((await verifier.verify(asStored.body, asStored.headers)).id).toBe('evt_3');
    expect((await verifier.verify(reordered.body, reordered.headers)).id).toBe('evt_4');
  });
});
