/**
 * Item: change requests over time and across a backup. A request past its expiry is `expired` for
 * any read or action, recorded once; under `require_signed_approvals` an approval verifies with the
 * approver's device over the request's digest; lists are newest first by pages; a backup carries
 * the policies (and the open requests: `restore-requests.ts`).
 */
import { changeRequestDigest, signApproval } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { manifestOf, restoreHelpers, split } from '../backup/restore-helpers.js';
import { protectedEnvironment, requestOf, reviewers } from '../harness/change-request-helpers.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeChangeRequestLifecycleTests(ctx: ConformanceContext): void {
  describe('change requests: lifecycle', () => {
    it('expires a request past expires_at for any read or action, recorded once', async () => {
      const env = await protectedEnvironment(ctx, { expires_after_hours: 1 });
      const { owner, admin } = await reviewers(ctx);
      const made = requestOf(await env.propose(owner, [{ key: 'E', value: '1', if_version: 0 }]));
      const ready = requestOf(await env.propose(owner, [{ key: 'F', value: '1', if_version: 0 }]));
      expect(requestOf(await env.act(admin, ready.id, 'approve', {})).status).toBe('approved');
      const before = (await ctx.events('change_request_expired')).length;
      ctx.clock.pinnedMs = Date.parse(ready.expires_at) + 1000;
      expect(requestOf(await env.read(made.id)).status).toBe('expired');
      expect(requestOf(await env.read(made.id)).status).toBe('expired');
      expectError(await env.act(admin, made.id, 'approve', {}), 409, 'change_request_expired');
      expectError(await env.act(admin, made.id, 'reject', { reason: 'late' }), 409, 'change_request_expired');
      expectError(await env.act(owner, made.id, 'cancel'), 409, 'change_request_expired');
      // Approved, but past its expiry: it applies nothing.
      expectError(await env.act(owner, ready.id, 'apply'), 409, 'change_request_expired');
      expect(await ctx.pull(env.path)).toEqual([]);
      const expired = await ctx.events('change_request_expired');
      expect(expired.length).toBe(before + 2);
      expect(expired[0]?.data).toEqual({ change_request: ready.id, expires_at: ready.expires_at });
      expect(expired[1]?.data).toEqual({ change_request: made.id, expires_at: made.expires_at });
    });

    it('requires a device signature over the digest when the policy says so', async () => {
      const env = await protectedEnvironment(ctx, {
        required_approvals: 2,
        require_signed_approvals: true,
        approver_roles: ['owner', 'admin', 'developer'],
        allow_self_approval: true,
      });
      const { admin, developer } = await reviewers(ctx);
      const made = requestOf(await env.propose(developer, [{ key: 'SIG', value: 'v1', if_version: 0 }]));
      expectError(await env.act(admin, made.id, 'approve', {}), 400, 'invalid_request');
      // A developer the policy names, but whose grants do not reach the environment, cannot review.
      const elsewhere = await ctx.enroll(
        await ctx.addMember(`cr-elsewhere-${env.slug}`, 'developer', [
          { project: 'api', environments: ['*'] },
        ]),
      );
      expectError(await env.act(elsewhere, made.id, 'approve', {}), 403, 'forbidden');
      expectError(await env.act(elsewhere, made.id, 'reject', { reason: 'no' }), 403, 'forbidden');
      const shown = requestOf(await env.read(made.id, '?include_values=true'));
      const digest = changeRequestDigest(env.address, shown.changes as never);
      const wrong = signApproval(
        made.id,
        digest.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        admin.deviceId,
        admin.keys.privateKey,
      );
      expectError(await env.act(admin, made.id, 'approve', wrong), 401, 'invalid_client_signature');
      const otherDevice = signApproval(made.id, digest, developer.deviceId, admin.keys.privateKey);
      expectError(await env.act(admin, made.id, 'approve', otherDevice), 403, 'device_not_owned');
      // A device of the approver's own, revoked: its signature verifies, and still approves nothing.
      const spare = await ctx.enroll(admin.token);
      const revoked = await ctx.send('POST', `/api/v2/organizations/acme/devices/${spare.deviceId}/revoke`);
      expect(revoked.status).toBe(200);
      const byRevoked = signApproval(made.id, digest, spare.deviceId, spare.keys.privateKey);
      expectError(await env.act(admin, made.id, 'approve', byRevoked), 403, 'device_revoked');
      expect(requestOf(await env.read(made.id)).approvals).toEqual([]);
      const signed = signApproval(made.id, digest, admin.deviceId, admin.keys.privateKey);
      const once = requestOf(await env.act(admin, made.id, 'approve', signed));
      expect(once.approvals).toEqual([
        expect.objectContaining({ user: 'cr-admin', device_id: admin.deviceId }),
      ]);
      // The author, allowed here, approves too, signed with their own device.
      const own = signApproval(made.id, digest, developer.deviceId, developer.keys.privateKey);
      expect(requestOf(await env.act(developer, made.id, 'approve', own)).status).toBe('approved');
      const [approved] = await ctx.events('change_request_approved');
      expect(approved?.data).toEqual({
        change_request: made.id,
        approvals: 2,
        required_approvals: 2,
        signed: true,
        status: 'approved',
      });
    });

    it('lists newest first in pages, by status', async () => {
      const env = await protectedEnvironment(ctx);
      const { owner } = await reviewers(ctx);
      const ids: string[] = [];
      for (const key of ['L1', 'L2', 'L3']) {
        ids.push(requestOf(await env.propose(owner, [{ key, value: 'v', if_version: 0 }])).id);
      }
      expect(requestOf(await env.act(owner, ids[1]!, 'cancel')).status).toBe('cancelled');
      const list = (query: string) => ctx.send('GET', `${env.path}/change-requests${query}`);
      const first = (await list('?limit=2')).json as {
        change_requests: { id: string }[];
        next_cursor: string;
      };
      expect(first.change_requests.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      const rest = (await list(`?limit=2&cursor=${first.next_cursor}`)).json as {
        change_requests: { id: string }[];
        next_cursor: null;
      };
      expect(rest).toEqual({ change_requests: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
      const cancelled = (await list('?status=cancelled')).json as { change_requests: { id: string }[] };
      expect(cancelled.change_requests.map((r) => r.id)).toEqual([ids[1]]);
      expectError(await list('?status=pending'), 400, 'invalid_request');
    });

    it('carries policies in a backup', async () => {
      const { backupOf, newOrganization, restore } = restoreHelpers(ctx);
      const slug = `cr-restore-${Math.random().toString(36).slice(2, 8)}`;
      const token = await newOrganization(slug);
      const base = `/api/v2/organizations/${slug}`;
      expect((await ctx.send('POST', `${base}/projects`, { slug: 'web' }, token)).status).toBe(201);
      expect(
        (await ctx.send('POST', `${base}/projects/web/environments`, { slug: 'prod' }, token)).status,
      ).toBe(201);
      const policy = { required_approvals: 3, bypass_roles: ['owner'], expires_after_hours: 5 };
      const env = `${base}/projects/web/environments/prod`;
      expect((await ctx.send('PATCH', env, { approval_policy: policy }, token)).status).toBe(200);
      const content = await backupOf(slug, token);
      const restored = await restore(slug, token, manifestOf(content), split(content), true);
      expect(restored.status, restored.text).toBe(200);
      const environments = (await ctx.send('GET', `${base}/projects/web/environments`, undefined, token))
        .json as {
        environments: { approval_policy: unknown }[];
      };
      expect(environments.environments[0]?.approval_policy).toEqual({
        ...policy,
        approver_roles: ['owner', 'admin'],
        allow_self_approval: false,
        require_signed_approvals: false,
      });
    });
  });
}
