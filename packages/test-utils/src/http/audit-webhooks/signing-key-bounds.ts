/**
 * Item: webhook signing keys are bounded. However often an organization rotates, a
 * `standard-webhooks-ed25519` delivery carries two signatures at most (the current key's and the
 * one it replaced), so its `webhook-signature` stays small; a rotation past the day's count is 429
 * `rate_limited` with `Retry-After` and changes nothing; the organization stores 12 keys at most.
 * `…/test` signs as a delivery does. Its own organization, and the suite's clock moved by days.
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

const DAY = 24 * 3_600_000;
const PER_DAY = 10;
const STORED = 12;

type Keys = { signing_keys: { public_key: string; status: string }[] };

export function describeSigningKeyBoundTests(ctx: ConformanceContext): void {
  describe('signing key bounds', () => {
    it('signing keys: after many rotations two keys sign, the header stays small, the count and the store are bounded', async () => {
      const slug = `keys-${Math.random().toString(36).slice(2, 10)}`;
      const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
      expect(created.status, created.text).toBe(201);
      const token = (created.json as { token: string }).token;
      const organizationId = (await ctx.core.store.organizations.getBySlug(slug))!.id;
      const send = (method: string, path: string) =>
        ctx.send(method, `/api/v2/organizations/${slug}/audit-webhooks${path}`, undefined, token);
      const start = Date.now();
      ctx.clock.pinnedMs = start;
      const hook = await ctx.send(
        'POST',
        `/api/v2/organizations/${slug}/audit-webhooks`,
        { name: 'keys', url: `https://${PUBLIC_HOST}/keys`, signature_scheme: 'standard-webhooks-ed25519' },
        token,
      );
      expect(hook.status, hook.text).toBe(201);
      const { id, public_keys } = hook.json as { id: string; public_keys: string[] };
      const made = [...public_keys];

      const rotateDay = async (day: number) => {
        // The first key counts in its day's window: nine rotations fill it.
        for (let n = 0; n < PER_DAY - (day === 0 ? 1 : 0); n++) {
          ctx.clock.pinnedMs = start + day * (DAY + 60_000) + (n + 1) * 1_000;
          const rotated = await send('POST', '/signing-keys/rotate');
          expect(rotated.status, rotated.text).toBe(200);
          const listed = (rotated.json as Keys).signing_keys;
          expect(listed.map((k) => k.status)).toEqual(['retiring', 'current']);
          expect(listed[0]!.public_key).toBe(made.at(-1));
          made.push(listed[1]!.public_key);
        }
        const refused = await send('POST', '/signing-keys/rotate');
        expectError(refused, 429, 'rate_limited');
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(DAY / 1000 - 60);
        expect(retryAfter).toBeLessThanOrEqual(DAY / 1000);
        const stored = await ctx.core.store.webhookSigningKeys.list(organizationId);
        expect(stored.length).toBeLessThanOrEqual(STORED);
        // The refused rotation wrote nothing: the newest key is still the one published last.
        expect(stored.at(-1)!.public_key).toBe(made.at(-1));
      };

      for (let day = 0; day < 4; day++) await rotateDay(day);
      expect(made).toHaveLength(1 + 9 + 3 * PER_DAY);
      const published = ((await send('GET', '/signing-keys')).json as Keys).signing_keys;
      expect(published.map((k) => k.public_key)).toEqual(made.slice(-2));

      // A test delivery is signed as any delivery is: by the two keys published, no others.
      ctx.webhookTransport.sent.length = 0;
      const tested = await send('POST', `/${id}/test`);
      expect(tested.status, tested.text).toBe(200);
      const delivery = ctx.webhookTransport.sent.find((d) => d.url.endsWith('/keys'))!;
      const signature = delivery.headers['webhook-signature']!;
      expect(signature.split(' ')).toHaveLength(2);
      expect(signature.length).toBeLessThan(200);
      const sentAt = 1000 * Number(delivery.headers['webhook-timestamp']);
      const verdict = async (publicKey: string) =>
        (
          await createWebhookVerifier({ publicKey, now: () => sentAt }).safeVerify(
            delivery.body,
            delivery.headers,
          )
        ).ok;
      expect(await Promise.all(made.map(verdict))).toEqual(made.map((_, n) => n >= made.length - 2));
      ctx.clock.pinnedMs = null;
    });
  });
}
