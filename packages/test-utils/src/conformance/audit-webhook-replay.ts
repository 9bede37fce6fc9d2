/**
 * Item: replaying the log to a webhook, counted by a real HTTPS receiver. A webhook created with
 * `replay_since` receives every earlier event its filter selects once, then the later ones; `recover
 * {since, until}` re-sends exactly the selected events of that range (`until` exclusive). Both are
 * recorded as events.
 */
import { expect } from 'vitest';
import { describe, it } from '../keyed.js';
import { selects, workload } from './audit-webhook-filters.js';
import type { ConformanceContext } from './context.js';
import { openLab } from './delivery-lab.js';
import { expectError } from './expect-error.js';

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Registers the replay tests. */
export function describeAuditWebhookReplayTests(ctx: ConformanceContext): void {
  describe('audit webhook replays', () => {
    it('replay_since: a new webhook receives every earlier selected event once, then the later ones', async () => {
      const lab = await openLab(ctx);
      try {
        await workload(lab, 1);
        await pause();
        const earlier = await lab.events();
        const since = earlier.find((e) => e.type === 'push_conflict')!.occurred_at;
        const filter = ['push_*', 'project_created', 'token_revoked'];
        const id = await lab.hook('/backfill', { event_types: filter, replay_since: since });
        await workload(lab, 2);
        await lab.drain();

        const events = await lab.events();
        const created = events.find(
          (e) => e.type === 'audit_webhook_created' && e.data['webhook_id'] === id,
        )!;
        const before = events.filter(
          (e) => e.seq < created.seq && e.occurred_at >= since && selects(filter, e.type),
        );
        const after = events.filter((e) => e.seq > created.seq && selects(filter, e.type));
        expect(before.length).toBeGreaterThan(2);
        expect(created.data).toMatchObject({
          replay_since: since,
          replayed: before.length,
          event_types: filter,
        });
        const arrived = lab.received.filter((r) => r.path === '/backfill').map((r) => r.eventId);
        expect(arrived.length).toBe(new Set(arrived).size);
        expect([...arrived].sort()).toEqual([...before, ...after].map((e) => e.id).sort());
      } finally {
        await lab.close();
      }
    });

    it('recover {since, until}: re-sends exactly the selected events of the range, until exclusive', async () => {
      const lab = await openLab(ctx);
      try {
        await workload(lab, 1);
        await pause();
        await workload(lab, 2);
        await pause();
        const log = await lab.events();
        const since = log.find((e) => e.type === 'push_applied')!.occurred_at;
        const until = log.filter((e) => e.type === 'push_applied').at(-1)!.occurred_at;
        const filter = ['push_*', 'member_added'];
        const id = await lab.hook('/range', { event_types: filter });
        await lab.drain();
        const live = lab.received.filter((r) => r.path === '/range').length;
        expect(live).toBe(0);

        const answer = await lab.send('POST', `/audit-webhooks/${id}/recover`, { since, until });
        expect(answer.status, answer.text).toBe(202);
        const expected = log.filter(
          (e) => e.occurred_at >= since && e.occurred_at < until && selects(filter, e.type),
        );
        expect(expected.some((e) => e.type === 'member_added')).toBe(true);
        expect(answer.json).toEqual({ queued: expected.length });
        await lab.drain();
        const arrived = lab.received.filter((r) => r.path === '/range').map((r) => r.eventId);
        expect([...arrived].sort()).toEqual(expected.map((e) => e.id).sort());
        const recorded = (await lab.events()).find((e) => e.type === 'audit_webhook_recovered')!;
        expect(recorded.data).toMatchObject({
          webhook_id: id,
          since,
          until,
          event_types: filter,
          queued: expected.length,
        });

        expectError(
          await lab.send('POST', `/audit-webhooks/${id}/recover`, { since, until: 'yesterday' }),
          400,
          'invalid_request',
        );
      } finally {
        await lab.close();
      }
    });
  });
}
