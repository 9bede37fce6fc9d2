/**
 * Item: `core.metricsText()` stays bounded whatever an organization creates. Webhooks appear by the
 * id the server made, never by name or URL; at most `limits.webhookSeriesPerOrganization` (default
 * 20) of an organization's webhooks get series of their own, the oldest, and the rest are summed
 * under `webhook="other"`. The text passes `promtool check metrics` where promtool is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

const PROMTOOL = ['/usr/bin/promtool', process.env['PROMTOOL'] ?? ''].find((p) => p && existsSync(p));
/** The default of `limits.webhookSeriesPerOrganization`, which the suite's core keeps. */
const SERIES = 20;
const WEBHOOKS = 45;
/** Samples per webhook series and window: 2 outcomes, a rate, 3 percentiles, 5 latency ranges. */
const PER_WINDOW = 11;

/** Registers the metrics bound tests. */
export function describeMetricsSeriesTests(ctx: ConformanceContext): void {
  describe('metrics series', () => {
    it('metrics: many webhooks give at most the capped series, by id, with the rest summed as other', async () => {
      const slug = `series-${Math.random().toString(36).slice(2, 8)}`;
      const created = await ctx.send('POST', '/api/v2/organizations', { slug }, ADMIN);
      expect(created.status, created.text).toBe(201);
      const token = (created.json as { token: string }).token;
      const ids: string[] = [];
      for (let n = 0; n < WEBHOOKS; n++) {
        const name = `Caller-Chosen "name" ${n}`;
        const url = `https://${PUBLIC_HOST}/path-token-${n}`;
        const hook = await ctx.send(
          'POST',
          `/api/v2/organizations/${slug}/audit-webhooks`,
          { name, url },
          token,
        );
        expect(hook.status, hook.text).toBe(201);
        ids.push((hook.json as { id: string }).id);
      }

      const text = await ctx.core.metricsText();
      const mine = text.split('\n').filter((line) => line.includes(`organization="${slug}"`));
      const webhooks = new Set(mine.map((line) => /webhook="([^"]*)"/.exec(line)?.[1]).filter(Boolean));
      // The oldest webhooks by id, and one series for the rest.
      expect([...webhooks].sort()).toEqual([...ids.slice(0, SERIES), 'other'].sort());
      // Nothing the caller chose became a label or a value.
      expect(text).not.toContain('Caller-Chosen');
      expect(text).not.toContain('path-token');
      expect(text).not.toMatch(/\bname="/);
      // The organization's share of the text is bounded by the cap, not by its webhooks: the
      // series, the states of the capped ones, the dead-letter gauges and the two queue gauges.
      const bound = (SERIES + 1) * PER_WINDOW * 3 + SERIES * 3 + 3 + 2;
      expect(mine.length).toBeLessThanOrEqual(bound);
      expect(mine.filter((line) => line.includes('webhook="other"'))).toHaveLength(PER_WINDOW * 3);
      expect(Buffer.byteLength(mine.join('\n'))).toBeLessThan(bound * 160);

      // Where promtool is installed (CI requires it: the HTTP metrics unit test fails without it).
      if (PROMTOOL) {
        const checked = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
        expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
        expect(checked.status).toBe(0);
      }
    });
  });
}
