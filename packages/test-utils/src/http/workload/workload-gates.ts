/**
 * Item: where the exchange and workload tokens stand among the core's gates: a workload token
 * authenticates where the host brings its own authentication; the exchange waits behind the keyring
 * gate like every route that reads the store; an issuer on an internal address is never fetched.
 */
import { createCore, createMemoryStore, generateDeviceKeyPair, generateKeyringKey } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { conformanceResolver } from '../harness/fake-network.js';
import { createIdentity, EXCHANGE, goodClaims, identityBody } from './workload-helpers.js';

export function describeWorkloadGateTests(ctx: ConformanceContext): void {
  describe('workload tokens and the gates', () => {
    it('authenticates where the host brings its own authentication', async () => {
      await createIdentity(ctx, 'ci-host');
      const host = createCore({
        store: ctx.core.store,
        authenticate: () => null,
        trustedIssuers: [{ issuer: ctx.issuer.issuer, ca: ctx.issuer.ca }],
        webhooks: { resolve: conformanceResolver },
        keyring: ctx.keyring,
      });
      const target = await ctx.serve(host);
      try {
        const keys = generateDeviceKeyPair();
        const body = {
          organization: 'acme',
          identity: 'ci-host',
          id_token: await ctx.issuer.sign(goodClaims(ctx)),
          public_key: keys.publicKey,
        };
        const answer = await target.send({
          method: 'POST',
          path: EXCHANGE,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(answer.status, answer.text).toBe(201);
        const token = (answer.json as { token: string }).token;
        const pulled = await target.send({
          method: 'GET',
          path: `${ENV_PATH}/secrets`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(pulled.status).toBe(200);
        // Member tokens are the host's business there: refused.
        const member = await target.send({
          method: 'GET',
          path: `${ENV_PATH}/secrets`,
          headers: { authorization: 'Bearer lk_x' },
        });
        expect(member.status).toBe(401);
      } finally {
        await target.close();
      }
    });

    it('waits behind the keyring gate: a core whose keyring cannot open the store answers 503', async () => {
      await createIdentity(ctx, 'ci-gate');
      const wrong = createCore({
        store: ctx.core.store,
        keyring: { current: 'k9', keys: { k9: generateKeyringKey() } },
        trustedIssuers: [{ issuer: ctx.issuer.issuer, ca: ctx.issuer.ca }],
        webhooks: { resolve: conformanceResolver },
        logger: { error: () => undefined },
      });
      const target = await ctx.serve(wrong);
      try {
        const body = {
          organization: 'acme',
          identity: 'ci-gate',
          id_token: await ctx.issuer.sign(goodClaims(ctx)),
          public_key: ctx.admin.keys.publicKey,
        };
        const answer = await target.send({
          method: 'POST',
          path: EXCHANGE,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expectError(answer, 503, 'service_unavailable');
      } finally {
        await target.close();
      }
    });

    it('never fetches keys of an issuer on an internal address', async () => {
      const store = createMemoryStore();
      const core = createCore({ store, webhooks: { resolve: conformanceResolver } });
      await core.bootstrap({
        organization: 'acme',
        user: 'admin',
        token: 'lk_internal_issuer_test_token_000000000000',
      });
      const org = (await store.organizations.getBySlug('acme'))!;
      // Written past the create-time check, as a hostile database row or a DNS change could.
      const body = identityBody(ctx, 'ci-internal');
      await store.workloads.create(
        {
          id: 'wid_internal0001',
          organization_id: org.id,
          ...body,
          claims: body.claims,
          actions: ['secrets:read'],
          token_ttl_seconds: 900,
          created_at: new Date().toISOString(),
        },
        10,
      );
      const before = { ...ctx.issuer.fetches };
      const target = await ctx.serve(core);
      try {
        const idToken = await ctx.issuer.sign(goodClaims(ctx));
        const answer = await target.send({
          method: 'POST',
          path: EXCHANGE,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            organization: 'acme',
            identity: 'ci-internal',
            id_token: idToken,
            public_key: ctx.admin.keys.publicKey,
          }),
        });
        expectError(answer, 401, 'invalid_workload_token');
        expect((answer.json as { error: { message: string } }).error.message).toContain('issuer_keys');
        expect(ctx.issuer.fetches).toEqual(before);
      } finally {
        await target.close();
      }
    });
  });
}
