/**
 * Item: audit webhook event-type filters over HTTP, counted by a real HTTPS receiver. A filtered
 * webhook receives exactly the events of a mixed workload its filter selects (names and prefixes),
 * an unfiltered one every event; a PATCH of the filter applies to the events after it only; unknown
 * types are a 400 naming them, on create and on PATCH, and change nothing.
 */
import type { ActivityEvent } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { type Lab, openLab } from './delivery-lab.js';

/** The filter rule, written out here independently of core's. */
export const selects = (filter: readonly string[], type: string) =>
  filter.length === 0 ||
  filter.some((entry) => (entry.endsWith('*') ? type.startsWith(entry.slice(0, -1)) : entry === type));

/** A mixed workload: structure, people, and every push outcome. */
export async function workload(lab: Lab, n: number): Promise<void> {
  const statuses: number[] = [];
  const note = async (response: Promise<{ status: number }>) => statuses.push((await response).status);
  await note(lab.send('POST', '/projects', { slug: `p${n}` }));
  await note(lab.send('POST', `/projects/p${n}/environments`, { slug: 'dev' }));
  await note(lab.send('PATCH', `/projects/p${n}/environments/dev`, { require_strict_conflict_mode: true }));
  await note(lab.push({ changes: [{ key: `K${n}`, value: 'one' }] }));
  await note(lab.push({ changes: [{ key: `K${n}`, value: 'two', if_version: 1 }] }));
  await note(lab.push({ changes: [{ key: `K${n}`, value: 'stale', if_version: 1 }] }));
  await note(lab.push({ changes: [{ key: `K${n}`, value: 'forced' }], force_overwrite: true }));
  await note(lab.send('POST', '/members', { user: `lab-m${n}`, role: 'viewer' }));
  const token = await lab.send('POST', '/tokens', { user: `lab-m${n}`, name: `t${n}` });
  statuses.push(token.status);
  await note(lab.send('POST', `/tokens/${(token.json as { id: string }).id}/revoke`));
  expect(statuses).toEqual([201, 201, 200, 200, 200, 409, 200, 201, 201, 200]);
}

/** The ids a webhook is owed: events from its creation on that its filter (as it stood) selects. */
export function owed(events: ActivityEvent[], from: number, filterAt: (seq: number) => string[]): string[] {
  return events
    .filter((e) => e.seq >= from && e.type !== 'webhook_test' && selects(filterAt(e.seq), e.type))
    .map((e) => e.id);
}

/** Registers the filter tests. */
export function describeAuditWebhookFilterTests(ctx: ConformanceContext): void {
  describe('audit webhook filters', () => {
    it('filters: each webhook receives exactly what its filter selects; a PATCH applies to later events only', async () => {
      const lab = await openLab(ctx);
      try {
        const all = await lab.hook('/all');
        const pushes = await lab.hook('/pushes', { event_types: ['push_*'] });
        const picked = await lab.hook('/picked', { event_types: ['token_created', 'member_added'] });
        const got = await lab.send('GET', `/audit-webhooks/${picked}`);
        expect(got.json).toMatchObject({ event_types: ['token_created', 'member_added'] });
        await workload(lab, 1);
        const patched = await lab.send('PATCH', `/audit-webhooks/${picked}`, {
          event_types: ['project_created', 'environment_*'],
        });
        expect(patched.status, patched.text).toBe(200);
        expect(patched.json).toMatchObject({ id: picked, event_types: ['project_created', 'environment_*'] });
        await workload(lab, 2);
        await lab.drain();

        const events = await lab.events();
        const createdSeq = (id: string) =>
          events.find((e) => e.type === 'audit_webhook_created' && e.data['webhook_id'] === id)!.seq;
        const patch = events.find((e) => e.type === 'audit_webhook_updated')!;
        expect(patch.data).toMatchObject({
          webhook_id: picked,
          changed: ['event_types'],
          from: { event_types: ['token_created', 'member_added'] },
          event_types: ['project_created', 'environment_*'],
        });
        const expected = {
          '/all': owed(events, createdSeq(all), () => []),
          '/pushes': owed(events, createdSeq(pushes), () => ['push_*']),
          '/picked': owed(events, createdSeq(picked), (seq) =>
            seq < patch.seq ? ['token_created', 'member_added'] : ['project_created', 'environment_*'],
          ),
        };
        for (const [path, ids] of Object.entries(expected)) {
          const arrived = lab.received.filter((r) => r.path === path).map((r) => r.eventId);
          expect([...arrived].sort(), path).toEqual([...ids].sort());
        }
        // The workload made each kind the filters name, before and after the change.
        const types = (path: string) => lab.received.filter((r) => r.path === path).map((r) => r.event.type);
        expect(new Set(types('/pushes'))).toEqual(
          new Set(['push_applied', 'push_conflict', 'push_force_overwrite']),
        );
        expect(types('/picked').sort()).toEqual(
          [
            'member_added',
            'token_created',
            'project_created',
            'environment_created',
            'environment_updated',
          ].sort(),
        );
        expect(types('/all').length).toBeGreaterThan(types('/pushes').length + types('/picked').length);
      } finally {
        await lab.close();
      }
    });

    it('filters: unknown event types are a 400 naming them, on create and on PATCH, and change nothing', async () => {
      const lab = await openLab(ctx);
      try {
        const before = await lab.send('GET', '/audit-webhooks');
        const refused = await lab.send('POST', '/audit-webhooks', {
          name: 'typo',
          url: 'https://hooks.example.com/typo',
          event_types: ['push_applied', 'push_aplied', 'nothing_*'],
        });
        expectError(refused, 400, 'invalid_request');
        expect(refused.text).toContain('push_aplied');
        expect(refused.text).toContain('nothing_*');
        expect(refused.text).not.toMatch(/push_applied[,)]/);
        expect((await lab.send('GET', '/audit-webhooks')).json).toEqual(before.json);

        const id = await lab.hook('/kept', { event_types: ['push_*'] });
        const patch = await lab.send('PATCH', `/audit-webhooks/${id}`, { event_types: ['tokens_created'] });
        expectError(patch, 400, 'invalid_request');
        expect(patch.text).toContain('tokens_created');
        for (const body of [{}, { event_types: ['Push'] }, { event_types: 'push_*' }, { secret: 'x' }]) {
          expectError(await lab.send('PATCH', `/audit-webhooks/${id}`, body), 400, 'invalid_request');
        }
        expectError(
          await lab.send('PATCH', `/audit-webhooks/${id}`, { url: 'https://127.0.0.1/x' }),
          400,
          'invalid_request',
        );
        expect((await lab.send('GET', `/audit-webhooks/${id}`)).json).toMatchObject({
          event_types: ['push_*'],
        });
        const updates = (await lab.events()).filter((e) => e.type === 'audit_webhook_updated');
        expect(updates).toEqual([]);
        // Another organization's webhook is not found.
        expectError(
          await ctx.send('PATCH', `/api/v2/organizations/acme/audit-webhooks/${id}`, { name: 'x' }),
          404,
          'not_found',
        );
      } finally {
        await lab.close();
      }
    });

    it('filters: a PATCH of name and URL is vetted and recorded by host, never the full URL', async () => {
      const lab = await openLab(ctx);
      try {
        const id = await lab.hook('/named');
        const changed = await lab.send('PATCH', `/audit-webhooks/${id}`, {
          name: 'renamed',
          url: 'https://hooks.example.com/new-path?token=hush',
        });
        expect(changed.status, changed.text).toBe(200);
        expect(changed.json).toMatchObject({
          name: 'renamed',
          url: 'https://hooks.example.com/new-path?token=hush',
        });
        const event = (await lab.events()).find((e) => e.type === 'audit_webhook_updated')!;
        expect(event.data).toMatchObject({
          name: 'renamed',
          host: 'hooks.example.com',
          changed: ['name', 'url'],
        });
        expect(JSON.stringify(event)).not.toContain('hush');
      } finally {
        await lab.close();
      }
    });
  });
}
