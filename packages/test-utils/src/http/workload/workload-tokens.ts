/**
 * Item: the token exchange, `POST /workload-tokens`, against the suite's OIDC issuer on loopback
 * HTTPS: every check of the contract passes for RS256, ES256 and EdDSA tokens, and each refusal answers
 * 401 `invalid_workload_token` naming its check (409 `token_replayed` for a spent `jti`), never
 * echoing the token; keys are cached, fetched again once for an unknown `kid`, rotated.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { createIdentity, exchange, goodClaims, nowSeconds } from './workload-helpers.js';
import { describeWorkloadUseTests } from './workload-use.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Expects the 401 naming `check`, and that the answer holds no part of `idToken`. */
function expectRefusal(
  answer: { status: number; text: string; json: unknown },
  check: string,
  idToken: string,
): void {
  expectError(answer as never, 401, 'invalid_workload_token');
  const message = (answer.json as { error: { message: string } }).error.message;
  expect(message).toContain(`the ${check} check`);
  for (const part of idToken.split('.')) if (part.length > 8) expect(answer.text).not.toContain(part);
}

export function describeWorkloadTokenTests(ctx: ConformanceContext): void {
  describe('workload token exchange', () => {
    it('exchanges RS256, ES256 and EdDSA ID tokens, recording workload_token_issued without the JWT', async () => {
      const id = await createIdentity(ctx, 'ci-exchange');
      for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
        const idToken = await ctx.issuer.sign(goodClaims(ctx), { alg });
        const answer = await exchange(ctx, 'ci-exchange', idToken);
        expect(answer.status, answer.text).toBe(201);
        const body = answer.json as {
          token: string;
          device_id: string;
          expires_at: string;
          grants: unknown;
          actions: unknown;
        };
        expect(body.token).toMatch(/^lkw_/);
        expect(body.grants).toEqual([{ project: 'web', environments: ['prod'] }]);
        expect(body.actions).toEqual(['secrets:read', 'secrets:push']);
        expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(850_000);
        const [event] = await ctx.events('workload_token_issued');
        expect(event).toMatchObject({
          actor: { type: 'workload', id },
          device_id: body.device_id,
          data: {
            identity: 'ci-exchange',
            iss: ctx.issuer.issuer,
            sub: 'repo:acme/web:ref:refs/heads/main',
            aud: ['https://latchkey.example/acme'],
            claims: { repository_id: '424242', ref: 'refs/heads/main' },
            expires_at: body.expires_at,
          },
        });
        const text = JSON.stringify(await ctx.events());
        for (const part of idToken.split('.')) expect(text).not.toContain(part);
        expect(text).not.toContain(body.token);
      }
      // By id as well as by name.
      expect((await exchange(ctx, id, await ctx.issuer.sign(goodClaims(ctx)))).status).toBe(201);
    });

    it('uses cached keys, fetches again once for an unknown kid, and follows a rotation', async () => {
      await createIdentity(ctx, 'ci-keys');
      expect((await exchange(ctx, 'ci-keys', await ctx.issuer.sign(goodClaims(ctx)))).status).toBe(201);
      const before = { ...ctx.issuer.fetches };
      for (const alg of ['ES256', 'EdDSA'] as const)
        expect((await exchange(ctx, 'ci-keys', await ctx.issuer.sign(goodClaims(ctx), { alg }))).status).toBe(
          201,
        );
      expect(ctx.issuer.fetches).toEqual(before);
      // Past the cooldown, an unknown kid makes one fetch; a second one right after makes none.
      ctx.clock.pinnedMs = Date.now() + 11_000;
      const forged = await ctx.issuer.sign(goodClaims(ctx), {
        kid: 'no-such-kid',
        nowSeconds: nowSeconds(ctx),
      });
      expectRefusal(await exchange(ctx, 'ci-keys', forged), 'kid', forged);
      expect(ctx.issuer.fetches.jwks).toBe(before.jwks + 1);
      const again = await ctx.issuer.sign(goodClaims(ctx), { kid: 'other-kid', nowSeconds: nowSeconds(ctx) });
      expectRefusal(await exchange(ctx, 'ci-keys', again), 'kid', again);
      expect(ctx.issuer.fetches.jwks).toBe(before.jwks + 1);
      // A rotation: the new kid is fetched once the cooldown has passed, then cached.
      await ctx.issuer.rotate('RS256');
      ctx.clock.pinnedMs += 11_000;
      const rotated = await ctx.issuer.sign(goodClaims(ctx), { nowSeconds: nowSeconds(ctx) });
      expect((await exchange(ctx, 'ci-keys', rotated)).status).toBe(201);
      expect(ctx.issuer.fetches.jwks).toBe(before.jwks + 2);
      expect(
        (
          await exchange(
            ctx,
            'ci-keys',
            await ctx.issuer.sign(goodClaims(ctx), { nowSeconds: nowSeconds(ctx) }),
          )
        ).status,
      ).toBe(201);
      expect(ctx.issuer.fetches.jwks).toBe(before.jwks + 2);
    });

    it('refuses every failed check with 401 invalid_workload_token naming it', async () => {
      const refuseId = await createIdentity(ctx, 'ci-refuse');
      const issuedBefore = (await ctx.events('workload_token_issued')).length;
      const now = nowSeconds(ctx);
      const sign = (extra: Record<string, unknown>) => ctx.issuer.sign(goodClaims(ctx, extra));
      const cases: [string, Promise<string>][] = [
        ['iss', sign({ iss: 'https://token.actions.githubusercontent.com' })],
        ['aud', sign({ aud: null })],
        ['aud', sign({ aud: 'https://other.example' })],
        ['aud', sign({ aud: ['https://other.example', 'https://third.example'] })],
        ['exp', sign({ iat: now - 600, exp: now - 10 })],
        ['lifetime', sign({ iat: now, exp: now + 7200 })],
        ['iat', sign({ iat: now + 120, exp: now + 400 })],
        ['nbf', sign({ nbf: now + 120 })],
        ['sub', sign({ sub: 'repo:evil/web:ref:refs/heads/main' })],
        ['claim repository_id', sign({ repository_id: '999' })],
        ['claim ref', sign({ ref: null })],
        ['jti', sign({ jti: null })],
        // Algorithms outside RS256, ES256 and EdDSA, with keys the issuer's JWKS does list.
        ['alg', ctx.issuer.sign(goodClaims(ctx), { alg: 'ES384' })],
        ['alg', ctx.issuer.sign(goodClaims(ctx), { alg: 'PS256' })],
      ];
      for (const [check, token] of cases)
        expectRefusal(await exchange(ctx, 'ci-refuse', await token), check, await token);
      const good = await sign({});
      const [header, payload, signature] = good.split('.') as [string, string, string];
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
      expectRefusal(await exchange(ctx, 'ci-refuse', none), 'alg', none);
      const hsHeader = b64({ alg: 'HS256', typ: 'JWT', kid: ctx.issuer.kid('RS256') });
      const hmac = createHmac('sha256', ctx.issuer.publicPem('RS256'))
        .update(`${hsHeader}.${payload}`)
        .digest('base64url');
      const hs = `${hsHeader}.${payload}.${hmac}`;
      expectRefusal(await exchange(ctx, 'ci-refuse', hs), 'alg', hs);
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      const tampered = `${header}.${b64({ ...claims, sub: 'repo:acme/web:ref:refs/heads/evil' })}.${signature}`;
      expectRefusal(await exchange(ctx, 'ci-refuse', tampered), 'signature', tampered);
      expectRefusal(await exchange(ctx, 'ci-refuse', 'not-a-jwt'), 'format', 'not-a-jwt');
      expectRefusal(await exchange(ctx, 'no-such-identity', good), 'identity', good);
      // By its name or its id, an identity of acme mints nothing for globex.
      for (const identity of ['ci-refuse', refuseId])
        expectRefusal(await exchange(ctx, identity, good, { organization: 'globex' }), 'identity', good);
      // None of these issued anything, nor spent the good token's jti.
      expect(await ctx.events('workload_token_issued')).toHaveLength(issuedBefore);
      expect((await exchange(ctx, 'ci-refuse', good)).status).toBe(201);
    });

    it('refuses a replayed jti with 409 token_replayed, and a malformed public key with 400', async () => {
      await createIdentity(ctx, 'ci-replay');
      const idToken = await ctx.issuer.sign(goodClaims(ctx));
      expect((await exchange(ctx, 'ci-replay', idToken)).status).toBe(201);
      const replayed = await exchange(ctx, 'ci-replay', idToken);
      expectError(replayed, 409, 'token_replayed');
      for (const part of idToken.split('.')) expect(replayed.text).not.toContain(part);
      const fresh = await ctx.issuer.sign(goodClaims(ctx));
      for (const public_key of [
        'AAAA',
        'x'.repeat(43),
        '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----',
      ])
        expectError(await exchange(ctx, 'ci-replay', fresh, { public_key }), 400, 'invalid_request');
      // The refused key spent nothing: the same ID token is still good.
      expect((await exchange(ctx, 'ci-replay', fresh)).status).toBe(201);
      expectError(
        await ctx.send('POST', '/api/v2/workload-tokens', { organization: 'acme' }, null),
        400,
        'invalid_request',
      );
    });
  });
  describeWorkloadUseTests(ctx);
}
