/**
 * Item: signature schemes. A webhook per scheme receives the same workload through a real HTTPS
 * receiver; each delivery verifies with our verifier and with outside code (the standardwebhooks
 * and svix libraries; openssl and Python's cryptography for Ed25519); one altered byte, a replay,
 * or a delivery older than 300 s is refused by both. Rotation: during the grace period either
 * secret or public key verifies, after it only the new one (the suite's clock, pinned).
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import {
  libraryVerdicts,
  opensslVerifies,
  outsideReceiver,
  pythonCryptographyPresent,
  pythonVerifies,
} from '../../outside/outside-verifiers.js';
import type { ConformanceContext } from '../harness/context.js';
import { workload } from './audit-webhook-filters.js';
import { type Lab, openLab, type Received } from './delivery-lab.js';

const SCHEMES = ['latchkey', 'standard-webhooks', 'standard-webhooks-ed25519'] as const;

/** Creates a webhook per scheme; answers each one's secret (or public keys) by path. */
async function hooks(lab: Lab): Promise<{ secrets: Record<string, string>; publicKeys: string[] }> {
  const secrets: Record<string, string> = {};
  for (const scheme of SCHEMES) {
    const created = await lab.send('POST', '/audit-webhooks', {
      name: scheme,
      url: await lab.urlOf(`/${scheme}`),
      signature_scheme: scheme,
    });
    expect(created.status, created.text).toBe(201);
    const body = created.json as {
      signature_scheme: string;
      signing_secret?: string;
      public_keys?: string[];
    };
    expect(body.signature_scheme).toBe(scheme);
    if (body.signing_secret) secrets[`/${scheme}`] = body.signing_secret;
    if (scheme === 'standard-webhooks-ed25519') {
      expect(body.signing_secret).toBeUndefined();
      expect(body.public_keys).toEqual([expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/)]);
    }
  }
  const listed = await lab.send('GET', '/audit-webhooks/signing-keys');
  expect(listed.status, listed.text).toBe(200);
  const publicKeys = (listed.json as { signing_keys: { public_key: string }[] }).signing_keys.map(
    (key) => key.public_key,
  );
  return { secrets, publicKeys };
}

const at = (d: Received) => 1000 * Number(d.headers['webhook-timestamp'] ?? d.headers['x-service-timestamp']);

/** Our verifier's verdict on a delivery, at the delivery's time plus `laterMs`. */
function ours(keys: { secret?: string; publicKey?: string[] }, d: Received, laterMs = 0, raw = d.raw) {
  const verifier = createWebhookVerifier({ ...keys, now: () => at(d) + laterMs });
  return verifier.safeVerify(raw, d.headers).then((r) => (r.ok ? 'ok' : r.code));
}

/** One byte of the body changed (a letter of the event type). */
const altered = (raw: string) =>
  raw.replace(/"type":"(.)/, (_m, c: string) => `"type":"${c === 'a' ? 'b' : 'a'}`);

export function describeSignatureSchemeTests(ctx: ConformanceContext): void {
  describe('signature schemes', () => {
    verificationTests(ctx);
    rotationTests(ctx);
  });
}

/** Each scheme verifies with ours and outside code; altered, replayed and old deliveries fail both. */
function verificationTests(ctx: ConformanceContext): void {
  it('each scheme verifies with ours and outside code; altered, replayed, old are refused by both', async () => {
    const lab = await openLab(ctx);
    try {
      const { secrets, publicKeys } = await hooks(lab);
      expect(publicKeys).toHaveLength(1);
      await workload(lab, 1);
      await lab.drain();
      const python = pythonCryptographyPresent();
      for (const scheme of SCHEMES) {
        const got = lab.received.filter((d) => d.path === `/${scheme}`);
        expect(got.length, scheme).toBeGreaterThanOrEqual(10);
        const keys =
          scheme === 'standard-webhooks-ed25519'
            ? { publicKey: publicKeys }
            : { secret: secrets[`/${scheme}`]! };
        // One verifier for the whole run: a second verify of a delivery is a replay. The outside
        // libraries remember nothing, so each sits in the receiver the specification describes
        // (a `webhook-id` accepted once in the window), which refuses the replay.
        const verifier = createWebhookVerifier(keys);
        const secret = secrets[`/${scheme}`] ?? '';
        const outside = {
          standardwebhooks: outsideReceiver((b, h) => libraryVerdicts(secret, b, h).standardwebhooks),
          svix: outsideReceiver((b, h) => libraryVerdicts(secret, b, h).svix),
          openssl: outsideReceiver((b, h) => opensslVerifies(publicKeys[0]!, b, h)),
        };
        for (const [n, d] of got.entries()) {
          expect(await ours(keys, d), scheme).toBe('ok');
          expect(await ours(keys, d, 0, altered(d.raw))).toBe('signature_mismatch');
          expect(await ours(keys, d, 301_000)).toBe('timestamp_too_old');
          expect((await verifier.safeVerify(d.raw, d.headers)).ok).toBe(true);
          expect(await verifier.safeVerify(d.raw, d.headers)).toMatchObject({
            ok: false,
            code: 'replayed',
          });
          if (scheme === 'latchkey') {
            expect(d.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
            expect(d.headers['webhook-signature']).toBeUndefined();
          } else if (scheme === 'standard-webhooks') {
            expect(d.headers['webhook-id']).toBe(d.event.id);
            expect(libraryVerdicts(secret, d.raw, d.headers)).toEqual({
              standardwebhooks: true,
              svix: true,
            });
            expect(libraryVerdicts(secret, altered(d.raw), d.headers)).toEqual({
              standardwebhooks: false,
              svix: false,
            });
            expect(libraryVerdicts(secret, d.raw, d.headers, at(d) + 301_000)).toEqual({
              standardwebhooks: false,
              svix: false,
            });
            for (const receive of [outside.standardwebhooks, outside.svix]) {
              expect(receive(d.raw, d.headers)).toBe('ok');
              expect(receive(d.raw, d.headers)).toBe('replayed');
            }
          } else {
            expect(d.headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
            // Outside processes for the first few: each spawn costs more than the whole check.
            if (n >= 3) continue;
            expect(opensslVerifies(publicKeys[0]!, d.raw, d.headers)).toBe(true);
            expect(opensslVerifies(publicKeys[0]!, altered(d.raw), d.headers)).toBe(false);
            expect(outside.openssl(d.raw, d.headers)).toBe('ok');
            expect(outside.openssl(d.raw, d.headers)).toBe('replayed');
            if (python) {
              expect(pythonVerifies(publicKeys[0]!, d.raw, d.headers)).toBe(true);
              expect(pythonVerifies(publicKeys[0]!, altered(d.raw), d.headers)).toBe(false);
            }
          }
        }
      }
      // The body is the same bytes under every scheme: each event every hook got, byte for byte.
      const bodies = (scheme: string) =>
        new Map(lab.received.filter((d) => d.path === `/${scheme}`).map((d) => [d.event.id, d.raw]));
      const ed = bodies('standard-webhooks-ed25519');
      for (const scheme of ['latchkey', 'standard-webhooks']) {
        const other = bodies(scheme);
        for (const [id, raw] of ed) expect(other.get(id), `${scheme} ${id}`).toBe(raw);
      }
    } finally {
      await lab.close();
    }
  }, 120_000);
}

/** A rotation’s grace period, and after it. */
function rotationTests(ctx: ConformanceContext): void {
  it('rotation: during the grace period either secret or key verifies, after it only the new one', async () => {
    const lab = await openLab(ctx);
    try {
      const { secrets, publicKeys } = await hooks(lab);
      const id = (await lab.send('GET', '/audit-webhooks')).json as {
        audit_webhooks: { id: string; name: string }[];
      };
      const standard = id.audit_webhooks.find((w) => w.name === 'standard-webhooks')!.id;
      const rotated = await lab.send('POST', `/audit-webhooks/${standard}/rotate-secret`);
      expect(rotated.status, rotated.text).toBe(200);
      const newSecret = (rotated.json as { signing_secret: string }).signing_secret;
      const oldSecret = secrets['/standard-webhooks']!;
      const keys = await lab.send('POST', '/audit-webhooks/signing-keys/rotate');
      expect(keys.status, keys.text).toBe(200);
      const listed = (keys.json as { signing_keys: { public_key: string; status: string }[] }).signing_keys;
      expect(listed.map((k) => k.status)).toEqual(['retiring', 'current']);
      const newKey = listed[1]!.public_key;
      const oldKey = publicKeys[0]!;

      const deliveredNow = async (key: string) => {
        lab.received.length = 0;
        expect((await lab.send('POST', '/projects', { slug: key })).status).toBe(201);
        await lab.drain();
        const of = (path: string) => lab.received.find((d) => d.path === path)!;
        return { standard: of('/standard-webhooks'), ed: of('/standard-webhooks-ed25519') };
      };
      const verdicts = async (d: { standard: Received; ed: Received }) => ({
        oldSecret: await ours({ secret: oldSecret }, d.standard),
        newSecret: await ours({ secret: newSecret }, d.standard),
        oldKey: await ours({ publicKey: [oldKey] }, d.ed),
        newKey: await ours({ publicKey: [newKey] }, d.ed),
        libsOld: libraryVerdicts(oldSecret, d.standard.raw, d.standard.headers, at(d.standard)),
        libsNew: libraryVerdicts(newSecret, d.standard.raw, d.standard.headers, at(d.standard)),
        openssl: [
          opensslVerifies(oldKey, d.ed.raw, d.ed.headers),
          opensslVerifies(newKey, d.ed.raw, d.ed.headers),
        ],
      });
      const both = { standardwebhooks: true, svix: true };
      const none = { standardwebhooks: false, svix: false };
      expect(await verdicts(await deliveredNow('during'))).toEqual({
        oldSecret: 'ok',
        newSecret: 'ok',
        oldKey: 'ok',
        newKey: 'ok',
        libsOld: both,
        libsNew: both,
        openssl: [true, true],
      });
      ctx.clock.pinnedMs = Date.now() + 24 * 3_600_000 + 1_000;
      try {
        expect(await verdicts(await deliveredNow('after'))).toEqual({
          oldSecret: 'signature_mismatch',
          newSecret: 'ok',
          oldKey: 'signature_mismatch',
          newKey: 'ok',
          libsOld: none,
          libsNew: both,
          openssl: [false, true],
        });
        const published = await lab.send('GET', '/audit-webhooks/signing-keys');
        expect(
          (published.json as { signing_keys: { public_key: string }[] }).signing_keys.map(
            (k) => k.public_key,
          ),
        ).toEqual([newKey]);
      } finally {
        ctx.clock.pinnedMs = null;
      }
    } finally {
      await lab.close();
    }
  }, 120_000);
}
