/**
 * Item: replaying the log to a webhook, counted by a real HTTPS receiver. A webhook created with
 * `replay_since` receives every earlier event its filter selects once, then the later ones; `recover
 * {since, until}` re-sends exactly the selected events of that range (`until` exclusive). Both are
 * recorded as events. A long history is queued a batch at a time (the suite's core replays
 * {@link CONFORMANCE_REPLAY_BATCH} events a batch), and live events go before its later batches.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { CONFORMANCE_REPLAY_BATCH, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { selects, workload } from './audit-webhook-filters.js';
import { openLab } from './delivery-lab.js';

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

    it('replay_since: a long history is queued a batch at a time, and a live event arrives before its end', async () => {
      const lab = await openLab(ctx);
      try {
        for (let n = 0; n < 6; n++) await workload(lab, n);
        const history = await lab.events();
        expect(history.length).toBeGreaterThan(3 * CONFORMANCE_REPLAY_BATCH);
        const id = await lab.hook('/paced', { replay_since: '1970-01-01T00:00:00Z' });
        const created = (await lab.events()).find(
          (e) => e.type === 'audit_webhook_created' && e.data['webhook_id'] === id,
        )!;
        expect(created.data['replayed']).toBe(history.length);
        // One batch is queued with the webhook (its own creation's event besides), not the history.
        const queued = await ctx.core.store.deliveries.count(lab.organizationId, id, 'pending');
        expect(queued).toBe(CONFORMANCE_REPLAY_BATCH + 1);
        const live = await lab.push({ changes: [{ key: 'LIVE', value: 'now' }] });
        expect(live.status, live.text).toBe(200);
        const liveId = (live.json as { event_id: string }).event_id;
        await lab.drain();

        const arrived = lab.received.filter((r) => r.path === '/paced').map((r) => r.eventId);
        expect(arrived.length).toBe(new Set(arrived).size);
        for (const event of history) expect(arrived).toContain(event.id);
        const lastReplayed = Math.max(...history.map((e) => arrived.indexOf(e.id)));
        expect(arrived.indexOf(liveId)).toBeGreaterThanOrEqual(0);
        expect(arrived.indexOf(liveId)).toBeLessThan(lastReplayed);
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
