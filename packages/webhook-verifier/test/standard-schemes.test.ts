import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import {
  createWebhookVerifier,
  generateSigningKeyPair,
  generateStandardSecret,
  publicKeyOf,
  standardSignatureHeaders,
} from '../src/index.js';
import { codeOf, eventBody, NOW_MS, NOW_S, nodeApi, SECRET, type VerifierApi, webApi } from './helpers.js';

// The published Standard Webhooks test vector (the specification's reference libraries test it).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const STANDARD_SECRET = generateStandardSecret();
const OLD_STANDARD_SECRET = generateStandardSecret();
const PAIR = generateSigningKeyPair();
const OLD_PAIR = generateSigningKeyPair();
const now = () => NOW_MS;

/** Standard headers for a body whose id is `id`, signed with the given keys at NOW_S. */
function standard(id: string, keys: { secrets?: string[]; privateKeys?: string[] }, timestamp = NOW_S) {
  const body = eventBody(id);
  return { body, headers: standardSignatureHeaders({ ...keys, eventId: id, body, timestamp }) };
}

describe('the published Standard Webhooks test vector', () => {
  it('is what our signer produces', () => {
    const headers = standardSignatureHeaders({
      secrets: [VECTOR.secret],
      eventId: VECTOR.id,
      body: VECTOR.body,
      timestamp: VECTOR.timestamp,
    });
    expect(headers['webhook-signature']).toBe(VECTOR.signature);
  });

  it.each([nodeApi, webApi])('is accepted by our verifier ($name), its id the replay key', async (api) => {
    const verifier = api.createWebhookVerifier({ secret: VECTOR.secret, now: () => VECTOR.timestamp * 1000 });
    const headers = {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': `v1,bm9wZQ== ${VECTOR.signature}`,
    };
    const event = await verifier.verify(VECTOR.body, headers);
    expect(event.id).toBe(VECTOR.id);
    expect(event.json()).toEqual({ test: 2432232314 });
    expect(await codeOf(verifier.verify(VECTOR.body, headers))).toBe('replayed');
  });
});

describe('our deliveries verify with the outside libraries', () => {
  it('standardwebhooks and svix accept a standard-webhooks delivery (now, real clock)', () => {
    const id = 'evt_interop';
    const body = eventBody(id);
    const headers = standardSignatureHeaders({ secrets: [STANDARD_SECRET], eventId: id, body });
    expect(new StandardWebhook(STANDARD_SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new SvixWebhook(STANDARD_SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    // svix reads its own header names too; the same signature works under them.
    const svixHeaders = {
      'svix-id': headers['webhook-id'],
      'svix-timestamp': headers['webhook-timestamp'],
      'svix-signature': headers['webhook-signature'],
    };
    expect(new SvixWebhook(STANDARD_SECRET).verify(body, svixHeaders)).toEqual(JSON.parse(body));
  });

  it('both libraries refuse a body altered in one byte and a delivery older than 300 s', () => {
    const id = 'evt_interop_bad';
    const body = eventBody(id);
    const fresh = standardSignatureHeaders({ secrets: [STANDARD_SECRET], eventId: id, body });
    const old = standardSignatureHeaders({
      secrets: [STANDARD_SECRET],
      eventId: id,
      body,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const altered = body.replace('acme', 'acmf');
    for (const Lib of [StandardWebhook, SvixWebhook]) {
      expect(() => new Lib(STANDARD_SECRET).verify(altered, fresh)).toThrow();
      expect(() => new Lib(STANDARD_SECRET).verify(body, old)).toThrow();
    }
  });

  it('a rotation signs with both secrets: either library with either secret accepts', () => {
    const id = 'evt_rotation';
    const body = eventBody(id);
    const headers = standardSignatureHeaders({
      secrets: [OLD_STANDARD_SECRET, STANDARD_SECRET],
      eventId: id,
      body,
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [OLD_STANDARD_SECRET, STANDARD_SECRET]) {
      expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(new SvixWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
  });
});

describe.each([nodeApi, webApi])('our verifier, Standard Webhooks schemes ($name)', (api: VerifierApi) => {
  it('accepts messages the standardwebhooks and svix libraries sign', async () => {
    const verifier = api.createWebhookVerifier({ secret: STANDARD_SECRET, now });
    for (const [name, Lib] of [
      ['standardwebhooks', StandardWebhook],
      ['svix', SvixWebhook],
    ] as const) {
      const id = `msg_${name}`;
      const body = eventBody(id);
      const signature = new Lib(STANDARD_SECRET).sign(id, new Date(NOW_MS), body);
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(NOW_S),
        'webhook-signature': signature,
      };
      expect((await verifier.verify(body, headers)).id).toBe(id);
    }
  });

  it('accepts an Ed25519 delivery with the public key only, and refuses it with another key', async () => {
    const { body, headers } = standard('evt_ed', { privateKeys: [PAIR.privateKey] });
    expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    const other = api.createWebhookVerifier({ publicKey: OLD_PAIR.publicKey, now });
    expect(await codeOf(other.verify(body, headers))).toBe('signature_mismatch');
    const verifier = api.createWebhookVerifier({ publicKey: [PAIR.publicKey], now });
    expect((await verifier.verify(body, headers)).json()).toEqual(JSON.parse(body));
  });

  it('during an Ed25519 rotation either public key verifies; after it only the new one', async () => {
    const during = standard('evt_grace', { privateKeys: [OLD_PAIR.privateKey, PAIR.privateKey] });
    const after = standard('evt_after', { privateKeys: [PAIR.privateKey] });
    for (const key of [OLD_PAIR.publicKey, PAIR.publicKey]) {
      const verifier = api.createWebhookVerifier({ publicKey: key, now });
      expect((await verifier.verify(during.body, during.headers)).id).toBe('evt_grace');
    }
    const holdingOld = api.createWebhookVerifier({ publicKey: OLD_PAIR.publicKey, now });
    expect(await codeOf(holdingOld.verify(after.body, after.headers))).toBe('signature_mismatch');
    const holdingNew = api.createWebhookVerifier({ publicKey: PAIR.publicKey, now });
    expect((await holdingNew.verify(after.body, after.headers)).id).toBe('evt_after');
  });

  it.each([
    ['standard-webhooks', { secrets: [STANDARD_SECRET] }],
    ['standard-webhooks-ed25519', { privateKeys: [PAIR.privateKey] }],
  ])('%s: refuses one altered byte, a replay, too old, too new, with stable codes', async (_s, keys) => {
    const verifier = api.createWebhookVerifier({ secret: STANDARD_SECRET, publicKey: PAIR.publicKey, now });
    const ok = standard('evt_codes', keys);
    const altered = ok.body.replace('push_applied', 'push_applieD');
    expect(await codeOf(verifier.verify(altered, ok.headers))).toBe('signature_mismatch');
    expect(await codeOf(verifier.verify(ok.body, ok.headers))).toBe('accepted');
    expect(await codeOf(verifier.verify(ok.body, ok.headers))).toBe('replayed');
    const old = standard('evt_old', keys, NOW_S - 301);
    expect(await codeOf(verifier.verify(old.body, old.headers))).toBe('timestamp_too_old');
    const future = standard('evt_future', keys, NOW_S + 301);
    expect(await codeOf(verifier.verify(future.body, future.headers))).toBe('timestamp_in_future');
    const swapped = { ...ok.headers, 'webhook-id': 'evt_other' };
    expect(await codeOf(verifier.verify(ok.body, swapped))).toBe('signature_mismatch');
  });

  it('reports malformed and missing headers with the latchkey codes', async () => {
    const verifier = api.createWebhookVerifier({ secret: STANDARD_SECRET, now });
    const { body, headers } = standard('evt_fmt', { secrets: [STANDARD_SECRET] });
    const { 'webhook-id': _id, ...noId } = headers;
    expect(await codeOf(verifier.verify(body, noId))).toBe('missing_header');
    expect(await codeOf(verifier.verify(body, { ...headers, 'webhook-signature': 'v1,abc' }))).toBe(
      'malformed_signature',
    );
    expect(await codeOf(verifier.verify(body, { ...headers, 'webhook-signature': 'v2,abc' }))).toBe(
      'malformed_signature',
    );
    expect(await codeOf(verifier.verify(body, { ...headers, 'webhook-timestamp': '01' }))).toBe(
      'malformed_timestamp',
    );
    expect(await codeOf(verifier.verify(body, {}))).toBe('missing_header');
  });

  it('a latchkey secret (base64url) still verifies latchkey deliveries beside the new schemes', async () => {
    const verifier = api.createWebhookVerifier({ secret: SECRET, publicKey: PAIR.publicKey, now });
    const { body, headers } = standard('evt_mixed', { privateKeys: [PAIR.privateKey] });
    expect((await verifier.verify(body, headers)).id).toBe('evt_mixed');
  });
});

describe('keys', () => {
  it('a generated secret is whsec_ + standard base64 of 32 bytes; a key pair round-trips', () => {
    expect(STANDARD_SECRET).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(PAIR.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(publicKeyOf(PAIR.privateKey)).toBe(PAIR.publicKey);
  });

  it('refuses a verifier with neither secret nor public key, or a malformed public key', () => {
    expect(() => createWebhookVerifier({})).toThrow(TypeError);
    expect(() => createWebhookVerifier({ publicKey: [] })).toThrow(TypeError);
    expect(() => createWebhookVerifier({ publicKey: 'whpk_short' })).toThrow(TypeError);
  });
});
