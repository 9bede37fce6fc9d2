/**
 * Item: change requests on protected environments. A policy never fails open; a plain push there is
 * `approval_required` unless a role the policy names bypasses it with a reason; a request carries a
 * signed push (its signature's purpose its own) through approval to an apply that is exact at apply
 * time. Every refusal answers in the documented error shape.
 */
import { signChangeRequest, signPush } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { protectedEnvironment, requestOf, reviewers } from '../harness/change-request-helpers.js';
import type { ConformanceContext, Member } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeChangeRequestTests(ctx: ConformanceContext): void {
  policyTests(ctx);
  proposalTests(ctx);
  reviewTests(ctx);
}

function policyTests(ctx: ConformanceContext): void {
  describe('change requests: policies', () => {
    it('sets a policy that never fails open, shows it and records the old and the new one', async () => {
      const env = await protectedEnvironment(ctx, { required_approvals: 2 });
      for (const bad of [
        { required_approvals: 0 },
        {},
        { required_approvals: 11 },
        { required_approvals: 1, expires_after_hours: 721 },
      ]) {
        expectError(await ctx.send('PATCH', env.path, { approval_policy: bad }), 400, 'invalid_request');
      }
      const { developer } = await reviewers(ctx);
      const refused = await ctx.send('PATCH', env.path, { approval_policy: null }, developer.token);
      expectError(refused, 403, 'forbidden');
      const shown = await ctx.send('GET', '/api/v2/organizations/acme/projects/web/environments');
      const mine = (
        shown.json as { environments: { slug: string; approval_policy: unknown }[] }
      ).environments.find((e) => e.slug === env.slug);
      const policy = {
        required_approvals: 2,
        approver_roles: ['owner', 'admin'],
        allow_self_approval: false,
        require_signed_approvals: false,
        bypass_roles: [],
        expires_after_hours: 72,
      };
      expect(mine?.approval_policy).toEqual(policy);
      const removed = await ctx.send('PATCH', env.path, { approval_policy: null });
      expect((removed.json as { approval_policy: unknown }).approval_policy).toBeNull();
      const matrix = (await ctx.send('GET', '/api/v2/organizations/acme/permission-matrix')).json as {
        matrix: Record<string, Record<string, boolean>>;
      };
      const held = (role: string) =>
        ['changes:propose', 'changes:approve', 'changes:bypass'].map((p) => matrix.matrix[role]![p]);
      expect([held('owner'), held('developer'), held('viewer')]).toEqual([
        [true, true, true],
        [true, true, true],
        [false, false, false],
      ]);
      const [last] = await ctx.events('environment_updated');
      expect(last?.environment).toBe(env.slug);
      expect(last?.data).toEqual({
        require_strict_conflict_mode: false,
        approval_policy: { from: policy, to: null },
      });
    });

    it('refuses a plain push with approval_required; a bypass role pushes with a reason, recorded', async () => {
      const env = await protectedEnvironment(ctx, { bypass_roles: ['owner'] });
      const { admin } = await reviewers(ctx);
      const plain = await ctx.push(ctx.admin, { changes: [{ key: 'A', value: '1' }] }, env.address, env.path);
      expectError(plain, 403, 'approval_required');
      const [rejected] = await ctx.events('push_rejected');
      expect(rejected?.data).toEqual({ reason: 'approval_required', status: 403 });
      const notAllowed = await ctx.push(
        admin,
        { bypass_reason: 'outage', changes: [{ key: 'A', value: '1' }] },
        env.address,
        env.path,
      );
      expectError(notAllowed, 403, 'forbidden');
      const bypass = await ctx.push(
        ctx.admin,
        { bypass_reason: 'incident 42', changes: [{ key: 'A', value: '1' }] },
        env.address,
        env.path,
      );
      expect(bypass.status).toBe(200);
      const [event] = await ctx.events('change_bypassed');
      expect(event).toMatchObject({
        environment: env.slug,
        actor: { id: 'admin' },
        data: { reason: 'incident 42', keys: ['A'] },
      });
      const [applied] = await ctx.events('push_applied');
      expect(applied?.id).toBe((bypass.json as { event_id: string }).event_id);
      expect(applied!.seq).toBe(event!.seq - 1);
    });
  });
}

function proposalTests(ctx: ConformanceContext): void {
  describe('change requests: proposals', () => {
    it('makes a request from a signed body: no value shown, the purpose its own, every push check', async () => {
      const env = await protectedEnvironment(ctx);
      const { developer } = await reviewers(ctx);
      const made = requestOf(
        await env.propose(developer, [{ key: 'DB_URL', value: 'postgres://x', if_version: 0 }]),
      );
      expect(made).toMatchObject({
        status: 'open',
        created_by: 'cr-dev',
        device_id: developer.deviceId,
        required_approvals: 1,
        changes: [{ key: 'DB_URL', action: 'set', if_version: 0 }],
        approvals: [],
      });
      expect(made.id).toMatch(/^chr_/);
      expect(JSON.stringify(made)).not.toContain('postgres://x');
      const [created] = await ctx.events('change_request_created');
      expect(JSON.stringify(created)).not.toContain('postgres://x');
      // A push's signature is not a request's, and a request's is not a push's.
      const pushBody = signPush(
        { device_id: developer.deviceId, changes: [{ key: 'K', value: 'v', if_version: 0 }] },
        env.address,
        developer.keys.privateKey,
      );
      const asRequest = { ...pushBody, title: 'sneaky' };
      expectError(
        await ctx.send('POST', `${env.path}/change-requests`, asRequest, developer.token),
        401,
        'invalid_client_signature',
      );
      const signed = proposeBody(env, developer) as unknown as Record<string, unknown>;
      const { title: _t, ...asPush } = signed;
      expectError(
        await ctx.send('POST', `${env.path}/push`, asPush, developer.token),
        401,
        'invalid_client_signature',
      );
      // Replay, strictness, viewer, a revoked device.
      expect((await ctx.send('POST', `${env.path}/change-requests`, signed, developer.token)).status).toBe(
        201,
      );
      expectError(
        await ctx.send('POST', `${env.path}/change-requests`, signed, developer.token),
        409,
        'push_replayed',
      );
      const loose = await env.propose(developer, [{ key: 'K', value: 'v' }]);
      expect(expectError(loose, 428, 'if_version_required')['keys']).toEqual(['K']);
      expectError(
        await ctx.send('POST', `${env.path}/change-requests`, signed, ctx.viewerToken),
        403,
        'forbidden',
      );
      const spare = await ctx.enroll(developer.token);
      const revoke = await ctx.send('POST', `/api/v2/organizations/acme/devices/${spare.deviceId}/revoke`);
      expect(revoke.status).toBe(200);
      expectError(await env.propose(spare, [{ key: 'K', value: 'v', if_version: 0 }]), 403, 'device_revoked');
    });
  });
}

function reviewTests(ctx: ConformanceContext): void {
  describe('change requests: review', () => {
    it('refuses self-approval, a developer, a second approval, a closed request, in the error shape', async () => {
      const env = await protectedEnvironment(ctx, { required_approvals: 2 });
      const { owner, admin, developer } = await reviewers(ctx);
      const made = requestOf(await env.propose(owner, [{ key: 'X', value: '1', if_version: 0 }]));
      expectError(await env.act(owner, made.id, 'approve', {}), 403, 'forbidden');
      expectError(await env.act(developer, made.id, 'approve', {}), 403, 'forbidden');
      const once = requestOf(await env.act(admin, made.id, 'approve', { comment: 'looks right' }));
      expect(once).toMatchObject({
        status: 'open',
        approvals: [{ user: 'cr-admin', comment: 'looks right' }],
      });
      expectError(await env.act(admin, made.id, 'approve', {}), 409, 'already_approved');
      expectError(await env.act(admin, made.id, 'apply'), 409, 'change_request_closed');
      const rejected = requestOf(await env.act(admin, made.id, 'reject', { reason: 'wrong value' }));
      expect(rejected).toMatchObject({
        status: 'rejected',
        rejection: { user: 'cr-admin', reason: 'wrong value' },
      });
      expectError(await env.act(developer, made.id, 'approve', {}), 409, 'change_request_closed');
      expectError(await env.act(owner, made.id, 'cancel'), 409, 'change_request_closed');
      // Cancel: the author only.
      const other = requestOf(await env.propose(developer, [{ key: 'Y', value: '1', if_version: 0 }]));
      expectError(await env.act(admin, other.id, 'cancel'), 403, 'forbidden');
      expect(requestOf(await env.act(developer, other.id, 'cancel')).status).toBe('cancelled');
      // Another organization's token, another environment's path: not found.
      expectError(
        await env.read(made.id, '', 'lk_conformance_admin_token_globex_00000000000'),
        404,
        'not_found',
      );
      expectError(
        await ctx.send(
          'GET',
          `/api/v2/organizations/acme/projects/web/environments/prod/change-requests/${made.id}`,
        ),
        404,
        'not_found',
      );
    });
  });
}

/** A signed request body, not sent. */
function proposeBody(
  env: { address: { organization: string; project: string; environment: string } },
  who: Member,
) {
  const changes = [{ key: 'R', value: 'v', if_version: 0 }];
  return signChangeRequest(
    { device_id: who.deviceId, changes, title: 'r' },
    env.address,
    who.keys.privateKey,
  );
}
