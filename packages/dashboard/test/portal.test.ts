/**
 * The portal in Chromium: the demo's host app on one loopback origin frames the embedded page of
 * a portal session served from another (the Express example). An admin creates a webhook and sees
 * its secret once, rotates it, reads its metrics and disables it, all inside the frame; a page on
 * an origin not allowed cannot frame it; the token is never in the address bar, in storage, in a
 * URL or Referer the browser sent (what an access log records), in the server's output nor in any
 * event; a revoked or expired session shows that it ended and the host is told; a read-only
 * session shows no write and the API refuses a forged one; axe finds nothing serious in either
 * theme. Screenshots go to `test-output/`, and to `docs/` when LATCHKEY_DOCS_SCREENSHOTS=1.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  missingBrowser,
  screenshot,
  startReceiver,
  until,
} from './harness.js';
import { portalFrame, startPortalWorld, startStranger, watchTraffic } from './portal-world.js';

const TOKEN = 'lk_dashboard_portal_test_token_00000000000000';
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));
const skip = missingBrowser();

/** Saves a screenshot, and into docs/ when asked (so a test run does not rewrite the pictures). */
async function picture(page: Page, name: string) {
  const path = await screenshot(page, name, false);
  if (process.env['LATCHKEY_DOCS_SCREENSHOTS'] === '1') copyFileSync(path, join(DOCS, `${name}.png`));
}

describe.skipIf(skip !== null)(`the portal in Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let world: Awaited<ReturnType<typeof startPortalWorld>>;
  let traffic: ReturnType<typeof watchTraffic>;
  const tokens = new Set<string>();
  const problems: string[] = [];

  const frame = (on: Page = page): FrameLocator => on.frameLocator('latchkey-portal iframe');
  const card = () => frame().locator('article[data-webhook="Receiver"]');

  /** Opens the host page with `query` and waits for the portal's sections. */
  const open = async (query = '', on: Page = page) => {
    await on.goto(`${world.host.url}/${query}`);
    await frame(on).locator('.embed[data-state="ready"]').waitFor();
    tokens.add(traffic.last().token);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    world = await startPortalWorld(TOKEN, receiver.certFile);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    traffic = watchTraffic(context);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await world?.host.stop();
    await world?.server.stop();
    await receiver?.close();
  });

  it('frames the portal from another origin: no token in the address bar or storage, no sign-in, its height', async () => {
    await open();
    const embedded = await portalFrame(page);
    expect(new URL(embedded.url()).origin).toBe(world.server.url);
    expect(new URL(embedded.url()).origin).not.toBe(world.host.url);
    expect(new URL(embedded.url()).hash).toBe('');
    const { token } = traffic.last();
    expect(token).toMatch(/^lkp_/);
    expect(embedded.url()).not.toContain(token);
    for (const where of [embedded, page.mainFrame()]) {
      const stored = await where.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
      expect(stored).not.toContain(token);
    }
    expect(await frame().getByLabel('API token').count()).toBe(0);
    expect(await frame().getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await frame().getByRole('heading', { name: 'Audit Webhooks' }).waitFor();
    await frame().getByRole('tab', { name: 'Activity' }).waitFor();
    // The frame is as tall as the page inside it says it is, and grew from where it started.
    const iframe = page.locator('latchkey-portal iframe');
    await expect
      .poll(async () => {
        const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
        const inner = await embedded.evaluate(
          () => document.querySelector('.embed')!.getBoundingClientRect().height,
        );
        // Nothing scrolls inside the frame: the host page scrolls, as for the rest of its content.
        const [scroll, viewport] = await embedded.evaluate(() => [
          document.documentElement.scrollHeight,
          innerHeight,
        ]);
        return Math.abs(outer - inner) <= 1 && scroll! <= viewport!;
      })
      .toBe(true);
    expect(await iframe.evaluate((el) => el.getBoundingClientRect().height)).not.toBe(480);
    await expectAccessible(embedded, 'portal, light, empty');
  });

  it('creates a webhook in the frame and shows its secret once, then rotates, reads the metrics and disables', async () => {
    await frame().getByLabel('Name').fill('Receiver');
    await frame().getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
    await frame().getByRole('button', { name: 'Create webhook' }).click();
    const dialog = frame().getByRole('dialog');
    await dialog.waitFor();
    const secret = (await dialog.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await picture(page, 'portal-secret-once');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await card().locator('[data-status="active"]').waitFor();
    expect(await frame().locator('body').textContent()).not.toContain(secret);
    await until(() => receiver.received.some((r) => r.path === '/hooks'), 'the first delivery');
    const first = receiver.received.find((r) => r.path === '/hooks')!;
    await createWebhookVerifier({ secret }).verify(first.body, first.headers);

    await card().getByRole('button', { name: 'Rotate secret' }).click();
    await frame().getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const shown = frame().getByRole('dialog').filter({ hasText: 'New signing secret' });
    const rotated = (await shown.locator('code').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await shown.getByRole('button', { name: 'Done' }).click();

    // The metrics count the delivery, read through the portal's own token.
    const attempted = frame()
      .locator('dl.figures[data-window]')
      .locator('div')
      .filter({ hasText: 'Attempted' })
      .locator('dd');
    await expect
      .poll(async () => {
        await frame().getByRole('button', { name: 'Refresh' }).click();
        return Number(((await attempted.textContent()) ?? '0').replace(/\D/g, ''));
      })
      .toBeGreaterThanOrEqual(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await picture(page, 'portal-light');

    await card().getByRole('button', { name: 'Disable' }).click();
    await frame().getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await card().locator('[data-status="disabled"]').waitFor();
    const list = await world.server.api('GET', '/organizations/acme/audit-webhooks');
    expect((list.json['audit_webhooks'] as { status: string }[]).map((w) => w.status)).toEqual(['disabled']);
    await expectAccessible(await portalFrame(page), 'portal, light, a disabled webhook');
  });

  it('passes axe in the dark theme and takes the colour the host sets', async () => {
    const dark = await context.newPage();
    await dark.emulateMedia({ colorScheme: 'light' });
    await open('?theme=dark&accent=%236ea2ff', dark);
    const embedded = await portalFrame(dark);
    const look = await embedded.evaluate(() => ({
      theme: document.documentElement.dataset['theme'],
      scheme: getComputedStyle(document.documentElement).colorScheme,
      accent: document.documentElement.style.getPropertyValue('--accent'),
    }));
    expect(look).toEqual({ theme: 'dark', scheme: 'dark', accent: '#6ea2ff' });
    await expectAccessible(embedded, 'portal, dark');
    await picture(dark, 'portal-dark');
    await dark.close();
  });

  it('cannot be framed by a page on an origin the host does not allow', async () => {
    const minted = await world.server.api('POST', '/organizations/acme/portal-sessions', {
      capabilities: ['audit_webhooks:read'],
      origin: world.host.url,
    });
    expect(minted.status).toBe(201);
    const url = String(minted.json['url']);
    tokens.add(new URL(url, world.server.url).hash.slice(1));
    const stranger = await startStranger(() => new URL(url, world.server.url).href);
    const other = await context.newPage();
    const refusals: string[] = [];
    other.on('console', (message) => refusals.push(message.text()));
    await other.goto(stranger.url);
    await until(() => refusals.some((text) => text.includes('frame-ancestors')), 'the refusal to frame');
    const framed = other.frames().find((f) => f !== other.mainFrame());
    expect(
      await framed
        ?.locator('.embed')
        .count()
        .catch(() => 0),
    ).toBe(0);
    await other.close();
    await stranger.close();
  });

  it('shows a revoked session as ended, tells the host, and opens again with a fresh one', async () => {
    await open('?refresh=manual');
    const { session } = traffic.last();
    const revoked = await world.server.api('DELETE', `/organizations/acme/portal-sessions/${session}`);
    expect(revoked.status).toBe(200);
    // The page learns it at its next request (the list refreshes every few seconds).
    await frame().getByRole('heading', { name: 'This session has ended' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('body').getAttribute('data-expired')).toBe('1');
    await expectAccessible(await portalFrame(page), 'portal, ended');
    await page.getByRole('button', { name: 'Open a new session' }).click();
    await frame().locator('.embed[data-state="ready"]').waitFor();
    expect(traffic.last().session).not.toBe(session);
    tokens.add(traffic.last().token);
  });

  it('shows an expired session as ended when its time is up, and tells the host', async () => {
    const later = await context.newPage();
    await later.clock.install();
    await open('?refresh=manual&expires=60', later);
    await later.clock.fastForward('01:05');
    await frame(later).getByRole('heading', { name: 'This session has ended' }).waitFor();
    await expect.poll(() => later.locator('body').getAttribute('data-expired')).toBe('1');
    await later.close();
  });

  it('shows a read-only session no write, and the API refuses one forged with its token', async () => {
    await open('?read_only=1&capabilities=audit_webhooks:read,audit_webhooks:manage,audit_webhooks:secrets');
    await card().waitFor();
    await frame().locator('[data-field="session"]').getByText('read-only').waitFor();
    for (const name of [
      'Create webhook',
      'Rotate secret',
      'Disable',
      'Enable',
      'Send test event',
      'Edit events',
    ])
      expect(await frame().getByRole('button', { name }).count(), name).toBe(0);
    expect(await frame().getByLabel('Endpoint URL').count()).toBe(0);
    const { token } = traffic.last();
    const forged = await world.server.api(
      'POST',
      '/organizations/acme/audit-webhooks',
      { name: 'Forged', url: `${receiver.url}/forged` },
      token,
    );
    expect(forged.status).toBe(403);
    expect(forged.json['error']).toMatchObject({ code: 'forbidden', status: 403 });
    expect(
      (await world.server.api('GET', '/organizations/acme/audit-webhooks')).json['audit_webhooks'],
    ).toHaveLength(1);
    await expectAccessible(await portalFrame(page), 'portal, read-only');
  });

  it('leaves no token in any URL or Referer sent, in the server output or in any event', async () => {
    expect(tokens.size).toBeGreaterThanOrEqual(5);
    const history = await world.server.api('GET', '/organizations/acme/history?limit=500');
    const events = JSON.stringify(history.json);
    expect(events).toContain('portal_session_created');
    expect(events).toContain('portal_session_revoked');
    const sent = traffic.sent.join('\n');
    expect(sent).toContain('/dashboard/embed?session=ps_');
    for (const token of tokens) {
      expect(sent).not.toContain(token);
      expect(world.server.output()).not.toContain(token);
      expect(world.host.output()).not.toContain(token);
      expect(events).not.toContain(token);
    }
    expect(problems).toEqual([]);
  });
});
