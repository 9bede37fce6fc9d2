/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the Express
 * example server and a real HTTPS receiver: sign in, create a webhook and see its secret once,
 * rotate, test, dead-letter and enable, the metrics windows, and a developer who sees no controls.
 * Every screen is scanned with axe-core and saved as a screenshot under `test-output/`.
 */
import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  missingBrowser,
  screenshot,
  startReceiver,
  startServer,
  until,
} from './harness.js';

const TOKEN = 'lk_dashboard_browser_test_token_000000000000';
const SECTION = '/dashboard/settings/notifications/audit-webhooks';
const skip = missingBrowser();

describe.skipIf(skip !== null)(`dashboard in Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  const problems: string[] = [];
  let secret = '';
  let webhookId = '';

  const card = () => page.locator('article[data-webhook="Receiver"]');
  const badge = () => card().locator('[data-status]');
  const deliveredTypes = (path: string) =>
    receiver.received
      .filter((r) => r.path === path)
      .map((r) => (JSON.parse(r.body) as { type: string }).type);

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer(TOKEN, receiver.certFile);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    // Any script error or refused resource (the CSP included) fails the run at the end.
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    // Chromium logs every error answer as a console error; those the app handles (the 401 of a bad
    // sign-in, the 503 of the error-state test) are not script errors.
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        !/the server responded with a status of [45]\d\d/.test(message.text())
      )
        problems.push(message.text());
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('asks for an API token, then opens Settings > Notifications > Audit Webhooks', async () => {
    await page.goto(`${server.url}/dashboard`);
    await expect.poll(() => page.getByLabel('API token').isVisible()).toBe(true);
    await expectAccessible(page, 'sign-in');
    await screenshot(page, '01-sign-in');
    await page.getByLabel('API token').fill('lk_not_a_real_token_000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('That API token was not accepted.').isVisible()).toBe(true);
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit Webhooks' }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe(SECTION);
    expect(await page.getByRole('heading', { name: 'Settings', level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Notifications' }).getAttribute('aria-selected')).toBe('true');
    await page.getByText('No audit webhooks yet').waitFor();
    await page.getByText('No delivery attempts in the last 24 hours.').waitFor();
    await expectAccessible(page, 'audit webhooks, empty');
    await screenshot(page, '02-empty');
  });

  it('refuses a URL that is not https with a clear message, and creates with the secret shown once', async () => {
    await page.getByLabel('Name').fill('Receiver');
    await page.getByLabel('Endpoint URL').fill(receiver.url.replace('https:', 'http:'));
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('The endpoint URL must start with https://').waitFor();
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('it will not be shown again').isVisible()).toBe(true);
    secret = (await dialog.locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await dialog.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page, 'secret shown once');
    await screenshot(page, '03-secret-once');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await badge().waitFor();
    expect(await badge().textContent()).toContain('active');
    // The secret verifies what the receiver gets: the webhook's own creation event.
    await until(() => deliveredTypes('/hooks').includes('audit_webhook_created'), 'the first delivery');
    const first = receiver.received.find((r) => r.path === '/hooks')!;
    const event = (await createWebhookVerifier({ secret }).verify(first.body, first.headers)).json();
    const list = (await server.api('GET', '/organizations/acme/audit-webhooks')).json['audit_webhooks'];
    webhookId = (list as { id: string }[])[0]!.id;
    expect(webhookId).toMatch(/\S/);
    expect(JSON.stringify(event)).toContain(webhookId);
    // Gone after a reload: the page never holds it again.
    await page.reload();
    await badge().waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(
      await page.evaluate(() => JSON.stringify(sessionStorage) + JSON.stringify(localStorage)),
    ).not.toContain(secret);
  });

  it('rotates the secret behind a confirmation, showing the new one once', async () => {
    await card().getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('The current secret stops signing at once.').waitFor();
    await expectAccessible(page, 'rotate confirmation');
    await screenshot(page, '04-rotate-confirm');
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page.getByRole('dialog').filter({ hasText: 'New signing secret' });
    await shown.waitFor();
    const rotated = (await shown.locator('code').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await shown.getByRole('button', { name: 'Done' }).click();
    secret = rotated;
  });

  it('sends a test event and shows how it went; the delivery verifies with the new secret', async () => {
    const before = receiver.received.length;
    await card().getByRole('button', { name: 'Send test event' }).click();
    const result = card().locator('[data-field="result"]');
    await expect.poll(() => result.textContent()).toMatch(/^Test delivered: HTTP 204 in \d+ ms\.$/);
    const test = receiver.received.slice(before).find((r) => JSON.parse(r.body).type === 'webhook_test')!;
    expect(test).toBeDefined();
    await createWebhookVerifier({ secret }).verify(test.body, test.headers);
    await screenshot(page, '05-test-sent');
  });

  it('shows the webhook dead-lettered when the receiver keeps failing, and enable delivers what was held', async () => {
    receiver.state.failing = true;
    expect((await server.api('POST', '/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
    await expect.poll(() => badge().textContent(), { timeout: 20_000 }).toContain('dead_letter');
    expect(Number(await card().locator('[data-field="consecutive_failures"]').textContent())).toBeGreaterThan(
      0,
    );
    expect(await card().locator('[data-field="last_error"]').textContent()).toContain('http_status');
    // Events while dead-lettered are held, not sent.
    const sentBefore = receiver.received.length;
    expect((await server.api('POST', '/organizations/acme/projects', { slug: 'api' })).status).toBe(201);
    await expectAccessible(page, 'dead-lettered webhook');
    await screenshot(page, '06-dead-letter');
    expect(receiver.received.length).toBe(sentBefore);
    receiver.state.failing = false;
    await card().getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => badge().textContent(), { timeout: 20_000 }).toContain('active');
    // The receiver records the failed attempts too, so wait for the held second project itself.
    await until(
      () =>
        receiver.received.some(
          (r) => r.path === '/hooks' && (JSON.parse(r.body) as { project?: string }).project === 'api',
        ),
      'the held events (the first project again, and the second)',
    );
    const delivered = receiver.received
      .filter((r) => r.path === '/hooks' && r.body.includes('project_created'))
      .map((r) => JSON.parse(r.body) as { data: { project?: string }; project?: string });
    const json = JSON.stringify(delivered);
    expect(json).toContain('"web"');
    expect(json).toContain('"api"');
  });

  it('pages through the delivery attempts', async () => {
    // Enough attempts for two pages of ten.
    const before = deliveredTypes('/hooks').length;
    for (let i = 0; i < 6; i++)
      expect((await server.api('POST', '/organizations/acme/projects', { slug: `page-${i}` })).status).toBe(
        201,
      );
    await until(() => deliveredTypes('/hooks').length >= before + 6, 'six more deliveries');
    await card().getByRole('button', { name: 'Show deliveries' }).click();
    const table = card().locator('.deliveries table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').count();
    expect(rows).toBe(10);
    await card().getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => card().getByText('Page 2', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'delivery attempts');
    await screenshot(page, '07-deliveries');
    await card().getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => card().getByText('Page 1', { exact: true }).isVisible()).toBe(true);
  });

  it('shows the summary, the timeline and the latency buckets, and switches the window', async () => {
    const metrics = (await server.api('GET', '/organizations/acme/audit-webhooks/metrics?window=24h'))
      .json as {
      summary: { attempted: number; failed: number };
    };
    await page.getByRole('button', { name: 'Refresh' }).click();
    const figures = page.locator('dl.figures[data-window]');
    await expect.poll(() => figures.getAttribute('data-window')).toBe('24h');
    await expect
      .poll(async () =>
        Number(((await figures.locator('dd').first().textContent()) ?? '').replace(/\D/g, '')),
      )
      .toBeGreaterThanOrEqual(metrics.summary.attempted);
    const timeline = page.locator('figure[data-chart="timeline"]');
    await timeline.waitFor();
    const buckets24h = Number(await timeline.getAttribute('data-buckets'));
    expect(buckets24h).toBeGreaterThanOrEqual(24);
    expect(await timeline.locator('rect.bad').count()).toBe(buckets24h);
    expect(await card().locator('[data-chart="latency-buckets"] tbody tr').count()).toBe(5);
    await screenshot(page, '08-metrics-24h');
    // The picture in docs/demo.md: the first screen an admin sees.
    await card().getByRole('button', { name: 'Hide deliveries' }).click();
    await page.setViewportSize({ width: 1280, height: 1280 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'dashboard', false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('radio', { name: /7d/ }).check();
    await expect.poll(() => figures.getAttribute('data-window')).toBe('7d');
    await expect.poll(async () => Number(await timeline.getAttribute('data-buckets'))).not.toBe(buckets24h);
    await page.getByRole('radio', { name: /30d/ }).check();
    await expect.poll(() => figures.getAttribute('data-window')).toBe('30d');
    await expectAccessible(page, 'metrics 30d');
    await screenshot(page, '09-metrics-30d');
  });

  it('is usable from the keyboard: arrow keys move between tabs, the create form submits with Enter', async () => {
    await page.getByRole('tab', { name: 'Notifications' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/settings/general');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('General');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => new URL(page.url()).pathname).toBe(SECTION);
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://localhost/');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('article[data-webhook="Keyboard"]').waitFor();
  });

  it('reads well at 390 px wide and in dark mode', async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await narrow.goto(`${server.url}${SECTION}`);
    await narrow.getByLabel('API token').fill(TOKEN);
    await narrow.getByRole('button', { name: 'Sign in' }).click();
    await narrow.locator('article[data-webhook="Receiver"]').waitFor();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const background = await narrow.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(3 * 60);
    await expectAccessible(narrow, 'narrow, dark');
    await screenshot(narrow, '11-narrow-dark');
    await narrow.close();
  });

  it('shows an error with a way to retry when a request fails, and recovers', async () => {
    await page.route('**/audit-webhooks/metrics/timeline*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'service_unavailable', message: 'The store is busy; retry shortly.', status: 503 },
        }),
      }),
    );
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'The store is busy; retry shortly.' });
    await alert.waitFor();
    await expectAccessible(page, 'error state');
    await screenshot(page, '10-error-state');
    await page.unroute('**/audit-webhooks/metrics/timeline*');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.locator('figure[data-chart="timeline"]').waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('edits the event filter with a checklist grouped by resource, and the API shows it', async () => {
    const facts = () => card().locator('[data-field="event_types"]');
    expect(await facts().textContent()).toBe('All events');
    await card().getByRole('button', { name: 'Edit events' }).click();
    const editor = card().getByRole('form', { name: 'Events sent to Receiver' });
    await editor.getByRole('group', { name: 'Secrets' }).waitFor();
    for (const group of ['Organization', 'Audit webhooks', 'Evidence trail'])
      expect(await editor.getByRole('group', { name: group }).isVisible()).toBe(true);
    const all = editor.getByRole('checkbox', { name: 'All events' });
    expect(await all.isChecked()).toBe(true);
    await all.uncheck();
    // Every type stays checked until some are unchecked; nothing chosen is refused here.
    const checked = editor.getByRole('checkbox', { checked: true });
    const catalog = (await server.api('GET', '/event-types')).json['event_types'] as unknown[];
    expect(await checked.count()).toBe(catalog.length);
    while ((await checked.count()) > 0) await checked.first().uncheck();
    await editor.getByRole('button', { name: 'Save event filter' }).click();
    await editor.getByText('Choose at least one event type, or All events.').waitFor();
    await editor
      .getByRole('group', { name: 'Secrets' })
      .getByRole('checkbox', { name: 'push_force_overwrite' })
      .check();
    await editor.getByRole('checkbox', { name: 'member_added' }).check();
    await expectAccessible(page, 'event filter editor');
    await screenshot(page, '11b-event-filter');
    await editor.getByRole('button', { name: 'Save event filter' }).click();
    await card().getByText('Event filter saved: 2 event types.').waitFor();
    await expect.poll(() => facts().textContent()).toBe('member_addedpush_force_overwrite');
    const got = await server.api('GET', `/organizations/acme/audit-webhooks/${webhookId}`);
    expect(got.json['event_types']).toEqual(['member_added', 'push_force_overwrite']);
    const history = await server.api('GET', '/organizations/acme/history?type=audit_webhook_updated');
    expect((history.json['events'] as { data: Record<string, unknown> }[])[0]!.data).toMatchObject({
      webhook_id: webhookId,
      changed: ['event_types'],
      from: { event_types: [] },
      event_types: ['member_added', 'push_force_overwrite'],
    });
    // The editor opens on the saved filter; back to every event.
    await card().getByRole('button', { name: 'Edit events' }).click();
    expect(await editor.getByRole('checkbox', { name: 'member_added' }).isChecked()).toBe(true);
    expect(await editor.getByRole('checkbox', { name: 'token_created' }).isChecked()).toBe(false);
    await editor.getByRole('checkbox', { name: 'All events' }).check();
    await editor.getByRole('button', { name: 'Save event filter' }).click();
    await expect.poll(() => facts().textContent()).toBe('All events');
    expect(
      (await server.api('GET', `/organizations/acme/audit-webhooks/${webhookId}`)).json['event_types'],
    ).toEqual([]);
  });

  it('creates a webhook with the asymmetric scheme and shows the public key it verifies with', async () => {
    await page.getByLabel('Name').fill('Keyed');
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/keyed`);
    await page.getByLabel('Signature scheme').selectOption('standard-webhooks-ed25519');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Signing keys' }).waitFor();
    // No secret to show: the receiver needs the public key only.
    expect(await page.getByRole('dialog').count()).toBe(0);
    const publicKey = (await page.locator('.signing-keys code').first().textContent()) ?? '';
    expect(publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    await until(() => receiver.received.some((r) => r.path === '/keyed'), 'a delivery signed with the key');
    const delivery = receiver.received.find((r) => r.path === '/keyed')!;
    const verified = await createWebhookVerifier({ publicKey }).verify(delivery.body, delivery.headers);
    expect(verified.id).toMatch(/\S/);
    await expectAccessible(page, 'signing keys');
    await screenshot(page, '11b-signing-keys');
  });

  it('shows a developer that audit webhooks are for organization admins only, with no controls', async () => {
    expect(
      (
        await server.api('POST', '/organizations/acme/members', {
          user: 'dev@example.com',
          role: 'developer',
        })
      ).status,
    ).toBe(201);
    const issued = await server.api('POST', '/organizations/acme/tokens', {
      user: 'dev@example.com',
      name: 'dash',
    });
    expect(issued.status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').fill(issued.json['token'] as string);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Organization admins only.').waitFor();
    for (const name of ['Create webhook', 'Rotate secret', 'Disable', 'Enable', 'Send test event'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.locator('article[data-webhook]').count()).toBe(0);
    // The API refuses them too.
    const refused = await server.api(
      'GET',
      '/organizations/acme/audit-webhooks',
      undefined,
      issued.json['token'] as string,
    );
    expect(refused.status).toBe(403);
    await expectAccessible(page, 'developer');
    await screenshot(page, '12-developer');
  });

  it('logged no script error and no refused resource', () => {
    expect(problems).toEqual([]);
  });
});
