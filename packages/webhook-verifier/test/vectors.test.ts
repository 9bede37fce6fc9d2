import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createWebhookVerifier, generateSigningSecret, sign, signatureHeaders } from '../src/index.js';
import * as web from '../src/web.js';
import { SECRET } from './helpers.js';

const stripe = Stripe.webhooks;
const nowS = () => Math.floor(Date.now() / 1000);

interface Vector {
  secret: string;
  timestamp: string;
  body: Uint8Array;
}

const enc = new TextEncoder();
const VECTORS: Vector[] = [
  { secret: SECRET, timestamp: '1795341600', body: enc.encode('{"id":"evt_1","type":"push_applied"}') },
  { secret: SECRET, timestamp: '1795341600', body: new Uint8Array() },
  { secret: ` ${SECRET} `, timestamp: '1795341600', body: enc.encode('{"id":"evt_ws"}') },
  { secret: 'whsec_', timestamp: '0', body: enc.encode('{}') },
  { secret: 'whsec_ünïcødé-κλειδί-🔑', timestamp: '1', body: enc.encode('{"id":"évt","note":"日本語 ✓"}') },
  { secret: `whsec_${'k'.repeat(200)}`, timestamp: '999999999999999', body: enc.encode('{"id":"long-key"}') },
  { secret: SECRET, timestamp: '1795341600', body: new Uint8Array(Array.from({ length: 256 }, (_, i) => i)) },
  { secret: SECRET, timestamp: '1795341600', body: enc.encode(`{"id":"big","pad":"${'x'.repeat(70_000)}"}`) },
];

describe('test vectors', () => {
  it("agree with Python's hmac module", () => {
    const script = fileURLToPath(new URL('./fixtures/hmac_vectors.py', import.meta.url));
    const input = JSON.stringify(
      VECTORS.map((v) => ({
        secret: v.secret,
        timestamp: v.timestamp,
        body_b64: Buffer.from(v.body).toString('base64'),
      })),
    );
    // python3 is part of the development and CI machines; a missing interpreter fails this test.
    const run = spawnSync('python3', [script], { input, encoding: 'utf8' });
    expect(run.error, 'python3 must be installed').toBeUndefined();
    expect(run.stderr).toBe('');
    const expected = JSON.parse(run.stdout) as string[];
    expect(expected).toHaveLength(VECTORS.length);
    for (const [i, v] of VECTORS.entries()) {
      expect(sign(v), `vector ${i}`).toBe(expected[i]);
    }
  });

  it('agree with the Web Crypto signer', async () => {
    for (const v of VECTORS) expect(await web.sign(v)).toBe(sign(v));
  });

  it("agree with stripe's generateTestHeaderString (same message, HMAC-SHA256 hex)", () => {
    let compared = 0;
    for (const v of VECTORS) {
      const payload = Buffer.from(v.body).toString('utf8');
      // Stripe signs the payload's UTF-8 encoding, so only vectors that are valid UTF-8 compare; and it
      // reads timestamp 0 as "now".
      if (!Buffer.from(payload, 'utf8').equals(Buffer.from(v.body)) || v.timestamp === '0') continue;
      compared++;
      const header = stripe.generateTestHeaderString({
        payload,
        secret: v.secret,
        timestamp: Number(v.timestamp),
      });
      const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
      expect(`sha256=${v1}`).toBe(sign({ ...v, body: payload }));
    }
    expect(compared).toBe(VECTORS.length - 2);
  });

  it("our signatures verify in stripe's constructEvent (header rewritten to t=...,v1=...)", () => {
    const timestamp = nowS();
    const payload = JSON.stringify({ id: 'evt_stripe', object: 'event', type: 'push_applied' });
    const ours = signatureHeaders({ secret: SECRET, body: payload, eventId: 'evt_stripe', timestamp });
    const stripeHeader = `t=${ours['X-Service-Timestamp']},v1=${ours['X-Service-Signature'].slice('sha256='.length)}`;
    const event = stripe.constructEvent(payload, stripeHeader, SECRET);
    expect(event.id).toBe('evt_stripe');
    // And the other way round: a tampered signature fails there too, so the check is real.
    const bad = stripeHeader.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(() => stripe.constructEvent(payload, bad, SECRET)).toThrow();
  });

  it("stripe's signatures verify with ours (header rewritten to sha256=...)", async () => {
    const timestamp = nowS();
    const payload = JSON.stringify({ id: 'evt_from_stripe', object: 'event' });
    const header = stripe.generateTestHeaderString({ payload, secret: SECRET, timestamp });
    const v1 = /v1=([0-9a-f]{64})/.exec(header)![1];
    const event = await createWebhookVerifier({ secret: SECRET }).verify(payload, {
      'x-service-timestamp': String(timestamp),
      'x-service-signature': `sha256=${v1}`,
    });
    expect(event.id).toBe('evt_from_stripe');
  });

  it('round-trip for random secrets, timestamps and bodies, on both engines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.uint8Array({ maxLength: 2048 }),
        fc.integer({ min: -300, max: 300 }),
        async (secret, bytes, skew) => {
          const now = 1_795_341_600_000;
          const timestamp = 1_795_341_600 + skew;
          const body = enc.encode(JSON.stringify({ id: `evt_${Buffer.from(bytes).toString('base64')}` }));
          const headers = signatureHeaders({ secret, body, eventId: 'x', timestamp });
          expect(await web.sign({ secret, timestamp, body })).toBe(headers['X-Service-Signature']);
          for (const create of [createWebhookVerifier, web.createWebhookVerifier]) {
            const event = await create({ secret, now: () => now }).verify(body, headers);
            expect(event.timestamp).toBe(timestamp);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('signing helpers', () => {
  it('signatureHeaders gives the three delivery headers', () => {
    const body = '{"id":"evt_h"}';
    const headers = signatureHeaders({ secret: SECRET, body, eventId: 'evt_h', timestamp: 1_795_341_600 });
    expect(headers).toEqual({
      'X-Service-Timestamp': '1795341600',
      'X-Service-Signature': sign({ secret: SECRET, body, timestamp: 1_795_341_600 }),
      'X-Service-Event-Id': 'evt_h',
    });
  });

  it('signatureHeaders signs with the current time by default', () => {
    const before = nowS();
    const headers = signatureHeaders({ secret: SECRET, body: '{}', eventId: 'e' });
    const ts = Number(headers['X-Service-Timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(nowS());
  });

  it('refuses what the verifier would refuse', () => {
    expect(() => sign({ secret: '', body: '{}', timestamp: 1 })).toThrow(TypeError);
    expect(() => sign({ secret: SECRET, body: '{}', timestamp: 1.5 })).toThrow(TypeError);
    expect(() => sign({ secret: SECRET, body: '{}', timestamp: -1 })).toThrow(TypeError);
    expect(() => sign({ secret: SECRET, body: '{}', timestamp: '007' })).toThrow(TypeError);
    expect(() => signatureHeaders({ secret: SECRET, body: '{}', eventId: '' })).toThrow(TypeError);
  });

  it.each([
    ['node', generateSigningSecret],
    ['web', web.generateSigningSecret],
  ])('generateSigningSecret (%s) is whsec_ + 32 random bytes in base64url', (_name, generate) => {
    const a = generate();
    const b = generate();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});
