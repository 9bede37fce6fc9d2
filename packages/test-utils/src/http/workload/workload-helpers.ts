/** What the workload identity tests share: an identity's body, the exchange, and a token's claims. */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';
import { expect } from 'vitest';
import { ADDRESS, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import type { TargetResponse } from '../harness/http-target.js';

export const IDENTITIES = '/api/v2/organizations/acme/workload-identities';
export const EXCHANGE = '/api/v2/workload-tokens';
export const AUDIENCE = 'https://latchkey.example/acme';
export const SUBJECT = 'repo:acme/web:ref:refs/heads/main';
export const CLAIMS = { repository_id: '424242', ref: 'refs/heads/main' };

/** The body of an identity named `name` of the suite's issuer: push and read on web/prod. */
export function identityBody(ctx: ConformanceContext, name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    issuer: ctx.issuer.issuer,
    audience: AUDIENCE,
    subject: SUBJECT,
    claims: CLAIMS,
    grants: [{ project: 'web', environments: ['prod'] }],
    actions: ['secrets:read', 'secrets:push'],
    ...extra,
  };
}

/** Creates an identity (as the owner) and returns its id. */
export async function createIdentity(
  ctx: ConformanceContext,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await ctx.send('POST', IDENTITIES, identityBody(ctx, name, extra));
  expect(created.status, created.text).toBe(201);
  return (created.json as { id: string }).id;
}

/** The claims of a token the identity accepts, at the suite's clock. */
export function goodClaims(ctx: ConformanceContext, extra: Record<string, unknown> = {}) {
  const now = Math.floor((ctx.clock.pinnedMs ?? Date.now()) / 1000);
  return { aud: AUDIENCE, sub: SUBJECT, ...CLAIMS, iat: now, exp: now + 300, ...extra };
}

/** The issuer's clock in seconds, as the suite's core reads it. */
export const nowSeconds = (ctx: ConformanceContext) => Math.floor((ctx.clock.pinnedMs ?? Date.now()) / 1000);

/** An exchange of `idToken` for `identity` of acme, with a fresh key pair. */
export async function exchange(
  ctx: ConformanceContext,
  identity: string,
  idToken: string,
  extra: Record<string, unknown> = {},
): Promise<TargetResponse & { keys: ReturnType<typeof generateDeviceKeyPair> }> {
  const keys = generateDeviceKeyPair();
  const response = await ctx.send(
    'POST',
    EXCHANGE,
    { organization: 'acme', identity, id_token: idToken, public_key: keys.publicKey, ...extra },
    null,
  );
  return Object.assign(response, { keys });
}

/** A workload session: the token, its device and its key pair. */
export interface WorkloadSession {
  token: string;
  deviceId: string;
  keys: ReturnType<typeof generateDeviceKeyPair>;
  expiresAt: string;
}

/** Exchanges a good token for `identity` and returns the session. */
export async function session(ctx: ConformanceContext, identity: string): Promise<WorkloadSession> {
  const answer = await exchange(
    ctx,
    identity,
    await ctx.issuer.sign(goodClaims(ctx), { nowSeconds: nowSeconds(ctx) }),
  );
  expect(answer.status, answer.text).toBe(201);
  const body = answer.json as { token: string; device_id: string; expires_at: string };
  return { token: body.token, deviceId: body.device_id, keys: answer.keys, expiresAt: body.expires_at };
}

/** A push by the session `who`, signed by its device (strict unless `strict` is false), to `path`. */
export function push(
  ctx: ConformanceContext,
  who: WorkloadSession,
  changes: { key: string; value?: string; if_version?: number }[],
  strict = true,
  path = ENV_PATH,
  address = ADDRESS,
) {
  const body = signPush(
    { device_id: who.deviceId, changes, ...(strict ? { conflict_mode: 'strict' as const } : {}) },
    address,
    who.keys.privateKey,
    () => ctx.clock.pinnedMs ?? Date.now(),
  );
  return ctx.send('POST', `${path}/push`, body, who.token);
}
