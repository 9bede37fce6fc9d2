/**
 * Item: an audit webhook's test event (`POST …/{auditWebhook}/test`): sent at once, signed so the
 * receiver's verifier accepts it, reported to the caller, counted in the metrics, and never touching
 * the webhook's state or its outbox.
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import { createWebhook, HOOKS } from './audit-webhooks.js';

/** Registers the test-event tests. */
export function describeWebhookTestEventTests(ctx: ConformanceContext): void {
  describe('audit webhook test events', () => {
    const create = (name: string, url?: string) => createWebhook(ctx, name, url);

    it('sends a signed test event at once and reports it; the receiver verifies it', async () => {
      const created = await create('tested');
      const sent = ctx.webhookTransport.sent;
      const before = sent.length;
      const pendingBefore = await ctx.core.store.deliveries.count(
        (await ctx.core.store.organizations.getBySlug('acme'))!.id,
        created.id,
        'pending',
      );
      const response = await ctx.send('POST', `${HOOKS}/${created.id}/test`);
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ delivered: true, status_code: 200, latency_ms: 7, error: null });
      expect(sent.length).toBe(before + 1);
      const delivery = sent[sent.length - 1]!;
      expect(delivery.url).toBe(created['url']);
      const verifier = createWebhookVerifier({ secret: created.signing_secret });
      const verified = await verifier.verify(delivery.body, delivery.headers);
      const event = verified.json() as unknown as { id: string; type: string; seq: number };
      expect(verified.id).toBe(event.id);
      expect(event.type).toBe('webhook_test');
      expect(delivery.body.startsWith(`{"id":"${event.id}"`)).toBe(true);
      expect(delivery.headers['X-Service-Event-Id']).toBe(event.id);
      // The event is in the log, with its chain fields, and queued for no webhook.
      const [logged] = await ctx.events('webhook_test');
      expect(logged).toMatchObject({ id: event.id, seq: event.seq, data: { webhook_id: created.id } });
      const orgId = (await ctx.core.store.organizations.getBySlug('acme'))!.id;
      expect(await ctx.core.store.deliveries.count(orgId, created.id, 'pending')).toBe(pendingBefore);
      const log = (await ctx.send('GET', `${HOOKS}/${created.id}/deliveries`)).json as {
        attempts: Record<string, unknown>[];
      };
      expect(log.attempts[0]).toMatchObject({
        event_id: event.id,
        event_type: 'webhook_test',
        succeeded: true,
        status_code: 200,
        test: true,
      });
    });

    it('reports a failed test without touching the webhook state, and counts it in the metrics', async () => {
      const created = await create('failing test', `https://${PUBLIC_HOST}/fail`);
      const response = await ctx.send('POST', `${HOOKS}/${created.id}/test`);
      expect(response.json).toMatchObject({
        delivered: false,
        status_code: 500,
        latency_ms: 7,
        error: { code: 'http_status', status_code: 500, message: 'the receiver answered 500' },
      });
      const got = (await ctx.send('GET', `${HOOKS}/${created.id}`)).json as Record<string, unknown>;
      expect(got).toMatchObject({
        status: 'active',
        consecutive_failures: 0,
        last_delivery: { succeeded: false, status_code: 500, latency_ms: 7 },
        last_error: { code: 'http_status', status_code: 500 },
      });
      const metrics = (await ctx.send('GET', `${HOOKS}/metrics`)).json as {
        webhooks: Record<string, unknown>[];
      };
      expect(metrics.webhooks.find((w) => w['id'] === created.id)).toMatchObject({
        attempted: 1,
        succeeded: 0,
        failed: 1,
        success_rate: 0,
        latency: { p50_ms: 7, p95_ms: 7, p99_ms: 7 },
        latency_buckets: { '0_100_ms': 1 },
        last_error: { code: 'http_status' },
      });
    });
  });
}
