/**
 * Item: a real HTTPS receiver on loopback with a `change_request_*` filter takes exactly the
 * change-request events of a scripted flow (made, approved, rejected, cancelled, values read,
 * applied, conflicted, expired), each once, and nothing else of it: not the pushes, not the
 * bypass. Deliveries never carry a value.
 */
import { signChangeRequest } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { openLab } from '../audit-webhooks/delivery-lab.js';
import type { ConformanceContext, Member } from '../harness/context.js';
import type { TargetResponse } from '../harness/http-target.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeChangeRequestDeliveryTests(ctx: ConformanceContext): void {
  describe('change requests: deliveries', () => {
    it('a change_request_* webhook receives exactly the flow’s change-request events', async () => {
      const lab = await openLab(ctx);
      try {
        const ok = async (answer: Promise<TargetResponse>) => {
          const got = await answer;
          expect(got.status, got.text).toBeLessThan(300);
          return got.json as { change_request: { id: string; expires_at: string } };
        };
        const env = '/projects/app/environments/prod';
        await ok(
          lab.send('PATCH', env, { approval_policy: { required_approvals: 1, bypass_roles: ['owner'] } }),
        );
        await ok(lab.send('POST', '/members', { user: 'reviewer', role: 'admin' }));
        const reviewer = (await ok(
          lab.send('POST', '/tokens', { user: 'reviewer', name: 'r' }),
        )) as unknown as {
          token: string;
        };
        await lab.hook('/changes', { event_types: ['change_request_*'] });
        await lab.hook('/everything');
        const address = { organization: lab.slug, project: 'app', environment: 'prod' };
        const propose = (who: Member, key: string, value: string) =>
          ok(
            lab.send(
              'POST',
              `${env}/change-requests`,
              signChangeRequest(
                { device_id: who.deviceId, title: key, changes: [{ key, value, if_version: 0 }] },
                address,
                who.keys.privateKey,
              ),
            ),
          );
        const act = (id: string, action: string, body?: unknown, token?: string) =>
          ok(lab.send('POST', `${env}/change-requests/${id}/${action}`, body, token));
        const applied = (await propose(lab.owner, 'A', 'secret-a')).change_request.id;
        const rejected = (await propose(lab.owner, 'B', 'secret-b')).change_request.id;
        const cancelled = (await propose(lab.owner, 'C', 'secret-c')).change_request.id;
        const conflicted = (await propose(lab.owner, 'A', 'secret-a2')).change_request.id;
        await act(applied, 'approve', {}, reviewer.token);
        await act(conflicted, 'approve', {}, reviewer.token);
        await act(rejected, 'reject', { reason: 'no' }, reviewer.token);
        await act(cancelled, 'cancel');
        await ok(lab.send('GET', `${env}/change-requests/${applied}?include_values=true`));
        await act(applied, 'apply');
        expect((await lab.send('POST', `${env}/change-requests/${conflicted}/apply`)).status).toBe(409);
        const late = await propose(lab.owner, 'D', 'secret-d');
        const bypass = await lab.push({
          bypass_reason: 'hotfix',
          changes: [{ key: 'E', value: 'secret-e' }],
        });
        expect(bypass.status).toBe(200);
        ctx.clock.pinnedMs = Date.parse(late.change_request.expires_at) + 1;
        await ok(lab.send('GET', `${env}/change-requests/${late.change_request.id}`));
        await lab.drain();

        const events = await lab.events();
        const flow = events.filter((e) => e.type.startsWith('change_request_'));
        const got = lab.received.filter((r) => r.path === '/changes');
        // Each once (deliveries run side by side, so in any order), and nothing else.
        expect(got.map((r) => r.eventId).sort()).toEqual(flow.map((e) => e.id).sort());
        expect(flow.map((e) => e.type)).toEqual([
          ...Array(4).fill('change_request_created'),
          'change_request_approved',
          'change_request_approved',
          'change_request_rejected',
          'change_request_cancelled',
          'change_request_values_read',
          'change_request_applied',
          'change_request_conflicted',
          'change_request_created',
          'change_request_expired',
        ]);
        // The unfiltered webhook has the rest too: the bypass and the pushes.
        const all = lab.received.filter((r) => r.path === '/everything').map((r) => r.event.type);
        expect(all).toEqual(expect.arrayContaining(['change_bypassed', 'push_applied', 'push_conflict']));
        expect(lab.received.map((r) => r.raw).join('\n')).not.toMatch(/secret-[a-e]/);
      } finally {
        await lab.close();
      }
    });
  });
}
