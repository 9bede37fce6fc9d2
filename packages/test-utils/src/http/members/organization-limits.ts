/**
 * Item: per-organization bounds. A core with small `limits` over the suite's store, served the way
 * the suite serves its own: a user creates at most `organizationsPerUser` organizations, an
 * organization has at most `auditWebhooksPerOrganization` webhooks and `witnessesPerOrganization`
 * witnesses. One more is 409 `limit_exceeded` and writes nothing, even when the requests race.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createCore, generateAuditKey } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { conformanceResolver, PUBLIC_HOST } from '../harness/fake-network.js';
import type { HttpTarget, TargetResponse } from '../harness/http-target.js';

/** The most events the bounded core replays at once (`webhooks.replay.maxEvents`). */
const MAX_REPLAYED = 4;
const LIMITS = { organizationsPerUser: 2, auditWebhooksPerOrganization: 3, witnessesPerOrganization: 2 };

/** A raw Ed25519 public key in standard base64, as a witness registers it. */
const witnessKey = () =>
  generateKeyPairSync('ed25519')
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(-32)
    .toString('base64');

/** Registers the bound tests. */
export function describeOrganizationLimitTests(ctx: ConformanceContext): void {
  describe('per-organization bounds', () => {
    async function bounded<T>(body: (send: Send) => Promise<T>): Promise<T> {
      const core = createCore({
        store: ctx.core.store,
        allowOrganizationCreation: true,
        auditKey: generateAuditKey().privateKeyPem,
        keyring: ctx.keyring,
        webhooks: {
          resolve: conformanceResolver,
          transport: ctx.webhookTransport,
          replay: { maxEvents: MAX_REPLAYED },
        },
        limits: LIMITS,
      });
      const target: HttpTarget = await ctx.serve(core);
      try {
        return await body((method, path, json, token) =>
          target.send({
            method,
            path: `/api/v2${path}`,
            headers: {
              authorization: `Bearer ${token}`,
              ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(json === undefined ? {} : { body: JSON.stringify(json) }),
          }),
        );
      } finally {
        await target.close();
      }
    }
    const suffix = () => Math.random().toString(36).slice(2, 8);

    it('limits: a user creates at most organizationsPerUser organizations, racing or not', async () => {
      const user = `founder-${suffix()}`;
      const token = await ctx.addMember(user, 'viewer');
      await bounded(async (send) => {
        const slugs = [1, 2, 3, 4, 5].map((n) => `bounded-${suffix()}-${n}`);
        const answers = await Promise.all(
          slugs.map((slug) => send('POST', '/organizations', { slug }, token)),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409]);
        for (const refused of answers.filter((a) => a.status === 409))
          expectError(refused, 409, 'limit_exceeded');
        // Nothing of a refused one was written: not the organization, not its owner or chain.
        const stored = await Promise.all(slugs.map((slug) => ctx.core.store.organizations.getBySlug(slug)));
        expect(stored.filter(Boolean)).toHaveLength(2);
        const again = await send('POST', '/organizations', { slug: `bounded-${suffix()}` }, token);
        expectError(again, 409, 'limit_exceeded');
        expect((again.json as { error: { message: string } }).error.message).toContain(
          'limits.organizationsPerUser',
        );
        // Another user still may.
        const other = await ctx.addMember(`founder-${suffix()}`, 'viewer');
        expect((await send('POST', '/organizations', { slug: `bounded-${suffix()}` }, other)).status).toBe(
          201,
        );
      });
    });

    it('limits: an organization has at most auditWebhooksPerOrganization webhooks, disabled ones included', async () => {
      await bounded(async (send) => {
        const founder = await ctx.addMember(`hooks-${suffix()}`, 'viewer');
        const made = await send('POST', '/organizations', { slug: `hooks-${suffix()}` }, founder);
        expect(made.status, made.text).toBe(201);
        const { organization, token } = made.json as { organization: { slug: string }; token: string };
        const base = `/organizations/${organization.slug}/audit-webhooks`;
        const create = (n: number) =>
          send('POST', base, { name: `hook ${n}`, url: `https://${PUBLIC_HOST}/bounded/${n}` }, token);
        const answers: TargetResponse[] = await Promise.all([1, 2, 3, 4, 5].map(create));
        expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409]);
        for (const refused of answers.filter((a) => a.status === 409))
          expectError(refused, 409, 'limit_exceeded');
        const listed = (await send('GET', base, undefined, token)).json as {
          audit_webhooks: { id: string }[];
        };
        expect(listed.audit_webhooks).toHaveLength(3);
        const id = (await ctx.core.store.organizations.getBySlug(organization.slug))!.id;
        const events = await ctx.core.store.activity.list({ organizationId: id, limit: 100 });
        expect(events.filter((e) => e.type === 'audit_webhook_created')).toHaveLength(3);
        // A disabled webhook still counts (it keeps its attempt log and metrics).
        const disabled = await send('POST', `${base}/${listed.audit_webhooks[0]!.id}/disable`, {}, token);
        expect(disabled.status, disabled.text).toBe(200);
        expectError(await create(6), 409, 'limit_exceeded');
      });
    });

    it('limits: a replay covers at most webhooks.replay.maxEvents events; more writes no webhook', async () => {
      await bounded(async (send) => {
        const founder = await ctx.addMember(`replay-${suffix()}`, 'viewer');
        const made = await send('POST', '/organizations', { slug: `replay-${suffix()}` }, founder);
        const { organization, token } = made.json as { organization: { slug: string }; token: string };
        const base = `/organizations/${organization.slug}`;
        for (const slug of ['a', 'b']) {
          // The newest event a millisecond or more after the others: `since` below covers it alone.
          if (slug === 'b') await new Promise((resolve) => setTimeout(resolve, 5));
          expect((await send('POST', `${base}/projects`, { slug }, token)).status).toBe(201);
        }
        // Its log: created, owner added, token created, two projects: five events, one too many.
        const body = (n: number) => ({
          name: `replayed ${n}`,
          url: `https://${PUBLIC_HOST}/replayed/${n}`,
          replay_since: '1970-01-01T00:00:00Z',
        });
        expectError(await send('POST', `${base}/audit-webhooks`, body(1), token), 409, 'limit_exceeded');
        const listed = (await send('GET', `${base}/audit-webhooks`, undefined, token)).json as {
          audit_webhooks: unknown[];
        };
        expect(listed.audit_webhooks).toEqual([]);
        // From the newest event on, the replay is within the bound.
        const organizationId = (await ctx.core.store.organizations.getBySlug(organization.slug))!.id;
        const [newest] = await ctx.core.store.activity.list({ organizationId, limit: 1 });
        const since = newest!.occurred_at;
        const answer = await send(
          'POST',
          `${base}/audit-webhooks`,
          { ...body(2), replay_since: since },
          token,
        );
        expect(answer.status, answer.text).toBe(201);
      });
    });

    it('limits: an organization registers at most witnessesPerOrganization witnesses', async () => {
      await bounded(async (send) => {
        const founder = await ctx.addMember(`witnesses-${suffix()}`, 'viewer');
        const made = await send('POST', '/organizations', { slug: `witnesses-${suffix()}` }, founder);
        const { organization, token } = made.json as { organization: { slug: string }; token: string };
        const path = `/organizations/${organization.slug}/activity/witnesses`;
        const add = (n: number) =>
          send('POST', path, { name: `w${n}.example/bounded`, public_key: witnessKey() }, token);
        const answers = await Promise.all([1, 2, 3, 4].map(add));
        expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409]);
        for (const refused of answers.filter((a) => a.status === 409))
          expectError(refused, 409, 'limit_exceeded');
        const listed = (await send('GET', path, undefined, token)).json as { witnesses: unknown[] };
        expect(listed.witnesses).toHaveLength(2);
      });
    });
  });
}

type Send = (method: string, path: string, json: unknown, token: string) => Promise<TargetResponse>;
