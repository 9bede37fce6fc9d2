/**
 * Item: change requests, after they are made: an apply exact at apply time (one transaction, a moved
 * key a 409 with `conflicts[]` and a conflicted request, nothing written), and values shown only on
 * request to those who may read secrets, recorded.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { protectedEnvironment, requestOf, reviewers } from '../harness/change-request-helpers.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeChangeRequestApplyTests(ctx: ConformanceContext): void {
  describe('change requests: apply', () => {
    it('applies once approved, exactly, naming the request and its approvers; a moved key is a conflict', async () => {
      const env = await protectedEnvironment(ctx);
      const { owner, admin, developer } = await reviewers(ctx);
      const first = requestOf(await env.propose(developer, [{ key: 'TOKEN', value: 'one', if_version: 0 }]));
      const second = requestOf(await env.propose(developer, [{ key: 'TOKEN', value: 'two', if_version: 0 }]));
      for (const r of [first, second])
        expect(requestOf(await env.act(admin, r.id, 'approve', {})).status).toBe('approved');
      const applied = await env.act(developer, first.id, 'apply');
      expect(applied.status).toBe(200);
      const { versions, event_id } = applied.json as { versions: unknown; event_id: string };
      expect(versions).toEqual([{ key: 'TOKEN', version: 1 }]);
      const [push] = await ctx.events('push_applied');
      expect(push).toMatchObject({
        id: event_id,
        environment: env.slug,
        data: { conflict_mode: 'strict', change_request: { id: first.id, approvers: ['cr-admin'] } },
      });
      expect(requestOf(await env.read(first.id))).toMatchObject({
        status: 'applied',
        applied: { event_id, versions },
      });
      expectError(await env.act(owner, first.id, 'apply'), 409, 'change_request_closed');
      const conflict = expectError(await env.act(developer, second.id, 'apply'), 409, 'version_conflict');
      expect(conflict['conflicts']).toEqual([{ key: 'TOKEN', server_version: 1, client_if_version: 0 }]);
      expect(requestOf(await env.read(second.id)).status).toBe('conflicted');
      expect(await ctx.pull(env.path)).toEqual([
        expect.objectContaining({ key: 'TOKEN', value: 'one', version: 1 }),
      ]);
      const [conflicted] = await ctx.events('change_request_conflicted');
      expect(conflicted?.data).toEqual({ change_request: second.id, conflicts: conflict['conflicts'] });
    });

    it('shows values only on request to those who may read secrets, recorded', async () => {
      const env = await protectedEnvironment(ctx);
      const { owner } = await reviewers(ctx);
      const made = requestOf(
        await env.propose(owner, [
          { key: 'S', value: 'hunter2', if_version: 0 },
          { key: 'GONE', delete: true, if_version: 3 },
        ]),
      );
      expect(requestOf(await env.read(made.id)).changes[0]).not.toHaveProperty('value');
      const outsider = await ctx.addMember(`cr-outsider-${env.slug}`, 'developer', [
        { project: 'api', environments: ['*'] },
      ]);
      expectError(await env.read(made.id, '?include_values=true', outsider), 403, 'forbidden');
      const shown = requestOf(await env.read(made.id, '?include_values=true', ctx.viewerToken));
      expect(shown.changes.map((c) => c.value)).toEqual(['hunter2', null]);
      const [read] = await ctx.events('change_request_values_read');
      expect(read).toMatchObject({
        actor: { id: 'viewer' },
        data: { change_request: made.id, keys: ['S', 'GONE'] },
      });
      expect(JSON.stringify(await ctx.events())).not.toContain('hunter2');
    });
  });
}
