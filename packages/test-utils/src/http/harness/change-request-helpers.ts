/**
 * What the change-request tests share: a protected environment of their own per test, its members
 * (an owner, a second admin, a developer granted the project), and signed bodies of requests.
 */
import { signChangeRequest, type UnsignedPush } from '@latchkey/core';
import { expect } from 'vitest';
import type { ConformanceContext, Member } from './context.js';
import type { TargetResponse } from './http-target.js';

const PROJECT = '/api/v2/organizations/acme/projects/web';

/** The people of the change-request tests: set up once per suite, on first use. */
export interface Reviewers {
  owner: Member;
  admin: Member;
  developer: Member;
}

const people = new WeakMap<ConformanceContext, Promise<Reviewers>>();

/** The owner `admin`, an admin `cr-admin` and a developer `cr-dev` granted all of web. */
export function reviewers(ctx: ConformanceContext): Promise<Reviewers> {
  let made = people.get(ctx);
  if (!made) {
    made = (async () => ({
      owner: ctx.admin,
      admin: await ctx.enroll(await ctx.addMember('cr-admin', 'admin')),
      developer: await ctx.enroll(
        await ctx.addMember('cr-dev', 'developer', [{ project: 'web', environments: ['*'] }]),
      ),
    }))();
    people.set(ctx, made);
  }
  return made;
}

let serial = 0;

/** A protected environment of web made for one test, with `policy` (the defaults for the rest). */
export async function protectedEnvironment(ctx: ConformanceContext, policy: Record<string, unknown> = {}) {
  const slug = `guarded-${++serial}-${Math.random().toString(36).slice(2, 8)}`;
  expect((await ctx.send('POST', `${PROJECT}/environments`, { slug })).status).toBe(201);
  const set = await ctx.send('PATCH', `${PROJECT}/environments/${slug}`, {
    approval_policy: { required_approvals: 1, ...policy },
  });
  expect(set.status).toBe(200);
  const path = `${PROJECT}/environments/${slug}`;
  const address = { organization: 'acme', project: 'web', environment: slug };
  return {
    slug,
    path,
    address,
    /** Proposes `changes` as `who`, signed for a change request. */
    propose: (who: Member, changes: UnsignedPush['changes'], title = 'Rotate keys', extra = {}) =>
      ctx.send(
        'POST',
        `${path}/change-requests`,
        signChangeRequest(
          { device_id: who.deviceId, changes, title, ...extra },
          address,
          who.keys.privateKey,
          () => ctx.clock.pinnedMs ?? Date.now(),
        ),
        who.token,
      ),
    /** `POST …/change-requests/{id}/{action}` as `who`. */
    act: (who: Member | string, id: string, action: string, body?: unknown) =>
      ctx.send(
        'POST',
        `${path}/change-requests/${id}/${action}`,
        body,
        typeof who === 'string' ? who : who.token,
      ),
    read: (id: string, query = '', token?: string) =>
      ctx.send('GET', `${path}/change-requests/${id}${query}`, undefined, token),
  };
}

/** The change request of a 200 or 201 answer. */
export function requestOf(response: TargetResponse): ChangeRequestJson {
  expect(response.status, JSON.stringify(response.json)).toBeLessThan(300);
  return (response.json as { change_request: ChangeRequestJson }).change_request;
}

/** A change request as answers show it. */
export interface ChangeRequestJson {
  id: string;
  status: string;
  created_at: string;
  created_by: string;
  device_id: string;
  expires_at: string;
  required_approvals: number;
  changes: { key: string; action: string; if_version: number; value?: string | null }[];
  approvals: { user: string; device_id?: string; comment?: string }[];
  rejection?: { user: string; reason: string };
  applied?: { event_id: string; versions: { key: string; version: number }[] };
}
