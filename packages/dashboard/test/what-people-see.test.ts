/**
 * What a person sees in the Audit Webhooks section, in Debian's Chromium: every icon is inline SVG
 * (a font glyph the system lacks shows as an empty box: the "disabled" badge's once did), the
 * timeline's time labels do not run together at 390 px, and axe-core's colour-contrast check
 * passes with webhooks in each state, in the light and the dark theme.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  missingBrowser,
  startReceiver,
  startServer,
  until,
} from './harness.js';

const TOKEN = 'lk_dashboard_what_people_see_token_0000000000';
const SECTION = '/dashboard/settings/notifications/audit-webhooks';
const skip = missingBrowser();

describe.skipIf(skip !== null)(`icons, labels and colours${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: Awaited<ReturnType<typeof startServer>>;

  const open = async (width: number, colorScheme: 'light' | 'dark'): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
    await page.goto(`${server.url}${SECTION}`);
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-status="disabled"]').waitFor();
    await page.locator('figure[data-chart="timeline"]').waitFor();
    return page;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer(TOKEN, receiver.certFile);
    const org = '/organizations/acme/audit-webhooks';
    // One webhook delivering, one disabled, so both badges and a timeline with attempts show.
    const created = [];
    for (const name of ['Delivering', 'Paused'])
      created.push((await server.api('POST', org, { name, url: `${receiver.url}/${name}` })).json);
    await until(() => receiver.received.length >= 2, 'the first deliveries');
    await server.api('POST', `${org}/${created[1]!['id'] as string}/disable`);
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('draws every badge icon as inline SVG with a size, no glyph', async () => {
    const page = await open(1280, 'light');
    for (const status of ['active', 'disabled']) {
      const badge = page.locator(`[data-status="${status}"]`).first();
      const icon = badge.locator('svg.badge-icon');
      const box = await icon.boundingBox();
      expect(box?.width, status).toBeGreaterThan(8);
      expect(box?.height, status).toBeGreaterThan(8);
      expect(await icon.locator('path').getAttribute('d')).toMatch(/\S/);
      // Nothing but the state's word as text: no symbol a font may lack.
      expect((await badge.textContent())?.trim()).toBe(status);
    }
    await page.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps the timeline's times apart at 390 px and passes colour contrast (${colorScheme})`, async () => {
      const page = await open(390, colorScheme);
      const times = page.locator('figure[data-chart="timeline"] .time-axis span');
      expect(await times.count()).toBe(2);
      const [first, last] = [await times.nth(0).boundingBox(), await times.nth(1).boundingBox()];
      const apart = first!.x + first!.width <= last!.x || first!.y + first!.height <= last!.y;
      expect(apart, JSON.stringify({ first, last })).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(page, `audit webhooks, 390 px, ${colorScheme}`);
      const contrast = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: unknown[] }> } })
          .axe;
        return (await axe.run({ runOnly: ['color-contrast'] })).violations;
      });
      expect(contrast).toEqual([]);
      await page.close();
    });
  }
});
