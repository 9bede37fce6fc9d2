import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMemoryReplayStore,
  isWebhookVerificationError,
  type ReplayStore,
  responseStatusFor,
  VERIFICATION_ERROR_CODES,
  VerifiedEvent,
  WebhookVerificationError,
} from '../src/index.js';
import {
  codeOf,
  deliveryHeaders,
  eventBody,
  NOW_MS,
  NOW_S,
  nodeApi,
  OTHER_SECRET,
  SECRET,
  type VerifierApi,
  webApi,
} from './helpers.js';

const now = () => NOW_MS;

// One suite, run against both HMAC engines: they must agree on every verdict.
describe.each([nodeApi, webApi])('verify ($name)', (api: VerifierApi) => {
  const create = (options: Partial<Parameters<VerifierApi['createWebhookVerifier']>[0]> = {}) =>
    api.createWebhookVerifier({ secret: SECRET, now, ...options });

  describe('accepts', () => {
    const body = eventBody('evt_accept');
    const bytes = new TextEncoder().encode(body);
    it.each([
      ['string', body],
      ['Uint8Array', bytes],
      ['ArrayBuffer', bytes.slice().buffer],
      ['Buffer', Buffer.from(body)],
      [
        'Uint8Array view into a larger buffer',
        new Uint8Array([0, ...bytes, 0]).subarray(1, bytes.length + 1),
      ],
      ['DataView', new DataView(bytes.slice().buffer)],
      ['ArrayBuffer from another realm', runInNewContext(`new Uint8Array([${bytes.join(',')}]).buffer`)],
    ])('a %s body', async (_kind, raw) => {
      const event = await create().verify(raw, deliveryHeaders(body));
      expect(event).toBeInstanceOf(VerifiedEvent);
      expect(event.id).toBe('evt_accept');
      expect(event.timestamp).toBe(NOW_S);
      expect(event.json()).toEqual({ id: 'evt_accept', type: 'push_applied', organization: 'acme' });
      expect(event.text()).toBe(body);
    });

    it('headers as a WHATWG Headers, lowercase, uppercase and single-element arrays', async () => {
      const body = eventBody('evt_h');
      const h = deliveryHeaders(body);
      const ts = h['X-Service-Timestamp']!;
      const sig = h['X-Service-Signature']!;
      const shapes = [
        new Headers(h),
        { 'x-service-timestamp': ts, 'x-service-signature': sig },
        { 'X-SERVICE-TIMESTAMP': ts, 'X-SERVICE-SIGNATURE': sig },
        { 'x-service-timestamp': [ts], 'x-service-signature': [sig] },
      ];
      for (const headers of shapes) {
        const verifier = create({ replayStore: false });
        expect((await verifier.verify(body, headers)).id).toBe('evt_h');
      }
    });

    it('exactly at the tolerance, in both directions', async () => {
      const body = eventBody('evt_edge');
      const verifier = create({ replayStore: false });
      await expect(
        verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S - 300 })),
      ).resolves.toBeTruthy();
      await expect(
        verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S + 300 })),
      ).resolves.toBeTruthy();
    });

    it('any of several secrets (rotation), and no other', async () => {
      const verifier = create({ secret: [OTHER_SECRET, SECRET], replayStore: false });
      const body = eventBody('evt_rot');
      expect((await verifier.verify(body, deliveryHeaders(body, { secret: SECRET }))).id).toBe('evt_rot');
      expect((await verifier.verify(body, deliveryHeaders(body, { secret: OTHER_SECRET }))).id).toBe(
        'evt_rot',
      );
      const third = 'whsec_VGhpcmQgc2VjcmV0LCBuZWl0aGVyIG9sZCBub3IgbmV3IQ';
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { secret: third })))).toBe(
        'signature_mismatch',
      );
    });

    it('bodies whose id is not the first member, or escaped, through the parsing path', async () => {
      const verifier = create({ replayStore: false });
      const cases: [string, string][] = [
        ['{"type":"x","id":"evt_last"}', 'evt_last'],
        ['  {\n  "id" : "evt_spaced" ,\n "type": "x"}', 'evt_spaced'],
        ['{"id":"evt_\\u00e9"}', 'evt_é'],
        ['{"id":"évt"}', 'évt'],
        [`{"id":"${'a'.repeat(300)}"}`, 'a'.repeat(300)],
      ];
      for (const [body, id] of cases) {
        const event = await verifier.verify(body, deliveryHeaders(body));
        expect(event.id).toBe(id);
        expect((event.json() as { id: string }).id).toBe(id);
      }
    });

    it('a custom tolerance', async () => {
      const verifier = create({ toleranceSeconds: 10, replayStore: false });
      const body = eventBody('evt_tol');
      await expect(
        verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S - 10 })),
      ).resolves.toBeTruthy();
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S - 11 })))).toBe(
        'timestamp_too_old',
      );
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S + 11 })))).toBe(
        'timestamp_in_future',
      );
    });
  });

  describe('rejects, with our error class only', () => {
    const body = eventBody('evt_neg');
    const good = deliveryHeaders(body);
    const ts = good['X-Service-Timestamp']!;
    const sig = good['X-Service-Signature']!;
    const hex = sig.slice(7);
    const withSig = (s: unknown) => ({ 'X-Service-Timestamp': ts, 'X-Service-Signature': s as string });
    const withTs = (t: unknown) => ({ 'X-Service-Timestamp': t as string, 'X-Service-Signature': sig });

    const cases: [string, unknown, unknown, string][] = [
      ['no headers at all', body, {}, 'missing_header'],
      ['null headers', body, null, 'missing_header'],
      ['no signature header', body, { 'X-Service-Timestamp': ts }, 'missing_header'],
      ['no timestamp header', body, { 'X-Service-Signature': sig }, 'missing_header'],
      ['an empty signature header', body, withSig(''), 'missing_header'],
      ['an empty array as the signature', body, withSig([]), 'missing_header'],
      ['uppercase hex', body, withSig(`sha256=${hex.toUpperCase()}`), 'malformed_signature'],
      ['an uppercase prefix', body, withSig(`SHA256=${hex}`), 'malformed_signature'],
      ['no prefix', body, withSig(hex), 'malformed_signature'],
      ['a v1= prefix (Stripe style)', body, withSig(`v1=${hex}`), 'malformed_signature'],
      ['63 hex digits', body, withSig(sig.slice(0, -1)), 'malformed_signature'],
      ['65 hex digits', body, withSig(`${sig}0`), 'malformed_signature'],
      ['a non-ASCII character among 64', body, withSig(`sha256=${hex.slice(0, 63)}é`), 'malformed_signature'],
      ['a non-hex letter among 64', body, withSig(`sha256=${hex.slice(0, 63)}g`), 'malformed_signature'],
      ['surrounding whitespace', body, withSig(` ${sig} `), 'malformed_signature'],
      ['two signature values', body, withSig([sig, sig]), 'malformed_signature'],
      ['a number as the signature', body, withSig(42), 'malformed_signature'],
      ['a timestamp with a suffix', body, withTs(`${ts}s`), 'malformed_timestamp'],
      ['a timestamp with leading zeros', body, withTs(`00${ts}`), 'malformed_timestamp'],
      ['a negative timestamp', body, withTs(`-${ts}`), 'malformed_timestamp'],
      ['a timestamp with a plus sign', body, withTs(`+${ts}`), 'malformed_timestamp'],
      ['a decimal timestamp', body, withTs(`${ts}.5`), 'malformed_timestamp'],
      ['a timestamp in milliseconds (16 digits)', body, withTs(`${ts}000000`), 'malformed_timestamp'],
      ['a timestamp with whitespace', body, withTs(` ${ts}`), 'malformed_timestamp'],
      ['a hex timestamp', body, withTs('0x6b0a1c20'), 'malformed_timestamp'],
      ['an ISO date as timestamp', body, withTs('2026-11-22T10:00:00Z'), 'malformed_timestamp'],
      ['a parsed object as the body', JSON.parse(body), good, 'invalid_body'],
      ['undefined as the body', undefined, good, 'invalid_body'],
    ];
    it.each(cases)('%s', async (_name, raw, headers, code) => {
      const verifier = create();
      // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input types
      expect(await codeOf(verifier.verify(raw as any, headers as any))).toBe(code);
    });

    it('a timestamp more than 300 s old, or one hour in the future', async () => {
      const verifier = create();
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S - 301 })))).toBe(
        'timestamp_too_old',
      );
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S + 3600 })))).toBe(
        'timestamp_in_future',
      );
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: 0 })))).toBe(
        'timestamp_too_old',
      );
    });

    it('a body that differs by one byte', async () => {
      const tampered = Buffer.from(body);
      const at = tampered.length - 2;
      tampered[at] = tampered[at]! ^ 1;
      expect(await codeOf(create().verify(tampered, good))).toBe('signature_mismatch');
    });

    it('a signature made at another timestamp', async () => {
      const other = deliveryHeaders(body, { timestamp: NOW_S - 1 });
      expect(await codeOf(create().verify(body, withSig(other['X-Service-Signature'])))).toBe(
        'signature_mismatch',
      );
    });

    it('whitespace around the secret is a different key, both ways', async () => {
      const spaced = deliveryHeaders(body, { secret: ` ${SECRET}\n` });
      expect(await codeOf(create().verify(body, spaced))).toBe('signature_mismatch');
      const verifier = create({ secret: `${SECRET} ` });
      expect(await codeOf(verifier.verify(body, good))).toBe('signature_mismatch');
    });

    it('the secret without its whsec_ prefix is a different key', async () => {
      const stripped = deliveryHeaders(body, { secret: SECRET.slice('whsec_'.length) });
      expect(await codeOf(create().verify(body, stripped))).toBe('signature_mismatch');
    });

    it('invalid bodies, once the signature passed', async () => {
      const bodies = [
        '',
        'not json',
        '[{"id":"evt_in_array"}]',
        'null',
        '"evt_string"',
        '{"type":"no id"}',
        '{"id":42}',
        '{"id":""}',
        '{"id":null}',
        '{"id":"evt_truncated"',
        new Uint8Array([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      ];
      for (const raw of bodies) {
        const verifier = create();
        expect(await codeOf(verifier.verify(raw, deliveryHeaders(raw))), String(raw)).toBe('invalid_body');
      }
    });

    it('a duplicate "id" member: the id is taken from the first, json() refuses the body', async () => {
      const raw = '{"id":"evt_first","id":"evt_second"}';
      const event = await create().verify(raw, deliveryHeaders(raw));
      expect(event.id).toBe('evt_first');
      expect(() => event.json()).toThrow(WebhookVerificationError);
    });

    it('garbage after a leading id surfaces as invalid_body from json()', async () => {
      const raw = '{"id":"evt_garbage", oops}';
      const event = await create().verify(raw, deliveryHeaders(raw));
      let caught: unknown;
      try {
        event.json();
      } catch (error) {
        caught = error;
      }
      expect(isWebhookVerificationError(caught) && caught.code).toBe('invalid_body');
    });
  });

  describe('replay protection', () => {
    it('rejects the same delivery twice', async () => {
      const verifier = create();
      const body = eventBody('evt_twice');
      const headers = deliveryHeaders(body);
      await verifier.verify(body, headers);
      expect(await codeOf(verifier.verify(body, headers))).toBe('replayed');
    });

    it('rejects the same id re-signed at a later time, and with another key order', async () => {
      const verifier = create();
      const body = eventBody('evt_resigned');
      await verifier.verify(body, deliveryHeaders(body));
      expect(await codeOf(verifier.verify(body, deliveryHeaders(body, { timestamp: NOW_S + 5 })))).toBe(
        'replayed',
      );
      const reordered = JSON.stringify({ type: 'push_applied', id: 'evt_resigned' });
      expect(await codeOf(verifier.verify(reordered, deliveryHeaders(reordered)))).toBe('replayed');
    });

    it('stores an id only after the signature passed', async () => {
      const verifier = create();
      const body = eventBody('evt_forged');
      const forged = deliveryHeaders(body, { secret: OTHER_SECRET });
      expect(await codeOf(verifier.verify(body, forged))).toBe('signature_mismatch');
      const stale = deliveryHeaders(body, { timestamp: NOW_S - 1000 });
      expect(await codeOf(verifier.verify(body, stale))).toBe('timestamp_too_old');
      expect((await verifier.verify(body, deliveryHeaders(body))).id).toBe('evt_forged');
    });

    it('keeps ids until timestamp + retention (default twice the tolerance)', async () => {
      const claims: [string, number, number][] = [];
      const spy: ReplayStore = {
        claim: (id, expiresAt, at) => {
          claims.push([id, expiresAt, at]);
          return true;
        },
        release: () => {},
      };
      const body = eventBody('evt_ttl');
      await create({ replayStore: spy }).verify(body, deliveryHeaders(body, { timestamp: NOW_S - 100 }));
      await create({ replayStore: spy, toleranceSeconds: 60, replayRetentionSeconds: 90 }).verify(
        body,
        deliveryHeaders(body, { timestamp: NOW_S - 10 }),
      );
      expect(claims).toEqual([
        ['evt_ttl', (NOW_S - 100 + 600) * 1000, NOW_MS],
        ['evt_ttl', (NOW_S - 10 + 90) * 1000, NOW_MS],
      ]);
    });

    it('holds an id as long as any accepted copy could still pass the timestamp check', async () => {
      let clock = NOW_MS;
      const verifier = api.createWebhookVerifier({ secret: SECRET, now: () => clock });
      const body = eventBody('evt_window');
      const first = deliveryHeaders(body, { timestamp: NOW_S });
      await verifier.verify(body, first);
      // The sender re-signs a retry 590 s later, just before the first copy's id would expire. It is a
      // replay, and a captured copy of it must stay rejected until its own window closes.
      clock = (NOW_S + 590) * 1000;
      const retry = deliveryHeaders(body, { timestamp: NOW_S + 590 });
      expect(await codeOf(verifier.verify(body, retry))).toBe('replayed');
      clock = (NOW_S + 620) * 1000;
      expect(await codeOf(verifier.verify(body, retry))).toBe('replayed');
      clock = (NOW_S + 891) * 1000;
      expect(await codeOf(verifier.verify(body, retry))).toBe('timestamp_too_old');
    });

    it('release() lets the same delivery through again', async () => {
      const verifier = create();
      const body = eventBody('evt_release');
      const headers = deliveryHeaders(body);
      const event = await verifier.verify(body, headers);
      await verifier.release(event);
      await expect(verifier.verify(body, headers)).resolves.toBeTruthy();
      await verifier.release('evt_release');
      await expect(verifier.verify(body, headers)).resolves.toBeTruthy();
    });

    it('handle() releases the id when the handler throws, and keeps it when it succeeds', async () => {
      const verifier = create();
      const body = eventBody('evt_handle');
      const headers = deliveryHeaders(body);
      const boom = new Error('database down');
      await expect(
        verifier.handle(body, headers, () => {
          throw boom;
        }),
      ).rejects.toBe(boom);
      const seen: string[] = [];
      await expect(verifier.handle(body, headers, async (event) => seen.push(event.id))).resolves.toBe(1);
      expect(seen).toEqual(['evt_handle']);
      expect(await codeOf(verifier.handle(body, headers, () => seen.push('again')))).toBe('replayed');
      expect(seen).toEqual(['evt_handle']);
    });

    it('handle() reports both errors when the release fails too', async () => {
      const store: ReplayStore = {
        claim: () => true,
        release: () => Promise.reject(new Error('store down')),
      };
      const body = eventBody('evt_both');
      const failed = create({ replayStore: store }).handle(body, deliveryHeaders(body), () => {
        throw new Error('handler');
      });
      await expect(failed).rejects.toBeInstanceOf(AggregateError);
    });

    it('replayStore: false turns it off', async () => {
      const verifier = create({ replayStore: false });
      const body = eventBody('evt_off');
      await verifier.verify(body, deliveryHeaders(body));
      await expect(verifier.verify(body, deliveryHeaders(body))).resolves.toBeTruthy();
    });

    it('exactly one of many concurrent deliveries of one id wins', async () => {
      const verifier = create({ replayStore: createMemoryReplayStore() });
      const body = eventBody('evt_race');
      const headers = deliveryHeaders(body);
      const results = await Promise.all(Array.from({ length: 20 }, () => verifier.safeVerify(body, headers)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.code === 'replayed')).toHaveLength(19);
    });
  });

  describe('safeVerify', () => {
    it('resolves every failure to { ok: false, code, message }', async () => {
      const verifier = create();
      const result = await verifier.safeVerify('{}', {});
      expect(result).toEqual({ ok: false, code: 'missing_header', message: expect.any(String) });
    });

    it('resolves success to { ok: true, event }', async () => {
      const body = eventBody('evt_safe');
      const result = await create().safeVerify(body, deliveryHeaders(body));
      expect(result.ok && result.event.id).toBe('evt_safe');
    });

    it('still rejects with infrastructure errors, which are not the sender’s fault', async () => {
      const down = new Error('ECONNREFUSED');
      const store: ReplayStore = { claim: () => Promise.reject(down), release: () => {} };
      const body = eventBody('evt_down');
      await expect(create({ replayStore: store }).safeVerify(body, deliveryHeaders(body))).rejects.toBe(down);
    });
  });

  it('refuses bad options at creation', () => {
    expect(() => api.createWebhookVerifier({ secret: '' })).toThrow(TypeError);
    expect(() => api.createWebhookVerifier({ secret: [] })).toThrow(TypeError);
    expect(() => api.createWebhookVerifier({ secret: [SECRET, ''] })).toThrow(TypeError);
    expect(() => api.createWebhookVerifier({ secret: SECRET, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() =>
      api.createWebhookVerifier({ secret: SECRET, toleranceSeconds: 300, replayRetentionSeconds: 299 }),
    ).toThrow(RangeError);
  });
});

describe('errors', () => {
  it('carry a stable code and the status a receiver should answer', () => {
    const error = new WebhookVerificationError('signature_mismatch', 'nope');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('WebhookVerificationError');
    expect(error.status).toBe(401);
    expect(WebhookVerificationError.is(error)).toBe(true);
    expect(isWebhookVerificationError(new Error('x'))).toBe(false);
    expect(isWebhookVerificationError(null)).toBe(false);
  });

  it('are recognised by brand across copies of the package', () => {
    const foreign = Object.assign(new Error('x'), {
      code: 'replayed',
      [Symbol.for('@latchkey/webhook-verifier/error')]: true,
    });
    expect(isWebhookVerificationError(foreign)).toBe(true);
  });

  it('map to statuses; replayed is acknowledged so the sender stops retrying', () => {
    expect(responseStatusFor('missing_header')).toBe(400);
    expect(responseStatusFor('malformed_signature')).toBe(400);
    expect(responseStatusFor('malformed_timestamp')).toBe(400);
    expect(responseStatusFor('invalid_body')).toBe(400);
    expect(responseStatusFor('timestamp_too_old')).toBe(401);
    expect(responseStatusFor('timestamp_in_future')).toBe(401);
    expect(responseStatusFor('signature_mismatch')).toBe(401);
    expect(responseStatusFor('replayed')).toBe(200);
  });
});

describe.each([nodeApi, webApi])('fuzz ($name)', (api: VerifierApi) => {
  it('rejects arbitrary input with our error class only, never anything else', async () => {
    const verifier = api.createWebhookVerifier({ secret: SECRET, now });
    const good = deliveryHeaders(eventBody('evt_fuzz'));
    const headerValue = fc.oneof(
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.constantFrom(good['X-Service-Signature']!, good['X-Service-Timestamp']!, undefined, null, 0, {}),
    );
    const headers = fc.oneof(
      // Well-formed headers often, so that bodies get past the header checks.
      { arbitrary: fc.constant(good), weight: 3 },
      fc.record({ 'X-Service-Signature': headerValue, 'X-Service-Timestamp': headerValue }),
      fc.dictionary(fc.string(), headerValue),
      fc.constantFrom(null, undefined, 'headers', 42, [], new Headers()),
    );
    const body = fc.oneof(
      fc.string(),
      fc.uint8Array(),
      fc.json(),
      fc.constantFrom(null, undefined, 0, {}, [], eventBody('evt_fuzz')),
    );
    await fc.assert(
      fc.asyncProperty(body, headers, async (b, h) => {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately arbitrary input
        const result = await verifier.safeVerify(b as any, h as any);
        // safeVerify rejects on anything but our error class, so resolving is the property.
        if (!result.ok) expect(VERIFICATION_ERROR_CODES).toContain(result.code);
      }),
      { numRuns: 500 },
    );
  });
});
