/**
 * The code of docs/embedding.md runs as written (see `embedding-doc.ts`): the Express block is the
 * host app, Latchkey mounted in it; its route mints a session from the host's own login with
 * `core.createPortalSession`, and the element's HTML is its settings page, opened on one loopback
 * origin and framing the portal from another, in Chromium. The React block type-checks, bundles
 * and renders the portal in the host's page, and mints afresh on `expired`; the block's sign-out
 * ends the member's sessions.
 */
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleReact, hostPage, LOGIN_COOKIE, startDocExpress, USER } from './embedding-doc.js';
import { expectAccessible, launchBrowser, missingBrowser } from './harness.js';
import { freePort, portalFrame } from './portal-world.js';

const TOKEN = 'lk_dashboard_embedding_doc_token_000000000000';
const skip = missingBrowser();

describe.skipIf(skip !== null)(`the code of docs/embedding.md${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let host: Awaited<ReturnType<typeof startDocExpress>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const frame = (): FrameLocator => page.frameLocator('latchkey-portal iframe');
  const api = async (method: string, path: string) => {
    const response = await fetch(`${host.latchkeyUrl}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{}',
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const liveSessions = async () =>
    ((await api('GET', '/organizations/acme/portal-sessions')).json['portal_sessions'] as unknown[]).length;

  beforeAll(async () => {
    const port = await freePort();
    const reactBundle = await bundleReact();
    host = await startDocExpress({
      port,
      token: TOKEN,
      hostPage: hostPage(`http://127.0.0.1:${port}`),
      reactBundle,
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('mints only for the host’s own signed-in user', async () => {
    const anonymous = await fetch(`${host.hostUrl}/settings/latchkey-portal`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await liveSessions()).toBe(0);
  });

  it('frames the portal in the element’s page, minted by the Express route from another origin', async () => {
    await context.addCookies([{ name: LOGIN_COOKIE, value: encodeURIComponent(USER), url: host.hostUrl }]);
    const minted = page.waitForResponse((r) => r.url().endsWith('/settings/latchkey-portal'));
    await page.goto(`${host.hostUrl}/settings`);
    expect((await minted).headers()['cache-control']).toBe('no-store');
    await frame().locator('.embed[data-state="ready"]').waitFor();
    const embedded = await portalFrame(page);
    expect(new URL(embedded.url()).origin).toBe(host.latchkeyUrl);
    expect(new URL(embedded.url()).hash).toBe('');
    await frame().getByRole('heading', { name: 'Audit Webhooks' }).waitFor();
    expect(await frame().locator('[data-field="session"]').textContent()).toContain(USER);
    // The block's capabilities: manage and secrets, so Create is offered.
    await frame().getByRole('button', { name: 'Create webhook' }).waitFor();
    expect(await page.locator('latchkey-portal iframe').getAttribute('title')).toBe('Audit Webhooks');
    await expectAccessible(embedded, 'the doc’s host page');
    expect(await liveSessions()).toBe(1);
  });

  it('renders the React block in the host page, dark, and mints afresh when the session ends', async () => {
    await page.goto(`${host.hostUrl}/react`);
    await frame().locator('.embed[data-state="ready"]').waitFor();
    const embedded = await portalFrame(page);
    expect(await embedded.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await frame().getByRole('heading', { name: 'Audit Webhooks' }).waitFor();
    await expectAccessible(embedded, 'the doc’s React page, dark');
    const first = new URL(embedded.url()).searchParams.get('session');
    const minted = page.waitForResponse((r) => r.url().endsWith('/settings/latchkey-portal'), {
      timeout: 20_000,
    });
    // Ends every session of the member: the frame learns it at its next request, and says so.
    expect((await api('POST', '/organizations/acme/portal-sessions/expire-all')).status).toBe(200);
    await minted;
    await frame().locator('.embed[data-state="ready"]').waitFor();
    const again = new URL((await portalFrame(page)).url()).searchParams.get('session');
    expect(again).toMatch(/^ps_/);
    expect(again).not.toBe(first);
  });

  it('ends the member’s sessions at the host’s sign-out', async () => {
    expect(await liveSessions()).toBeGreaterThan(0);
    const cookie = `${LOGIN_COOKIE}=${encodeURIComponent(USER)}`;
    const out = await fetch(`${host.hostUrl}/logout`, {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    });
    expect(out.status).toBe(302);
    expect(await liveSessions()).toBe(0);
    expect(problems).toEqual([]);
  });
});
