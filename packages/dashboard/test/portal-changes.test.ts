/**
 * Change requests inside the portal, in Chromium: the demo's host app on one loopback origin frames
 * a session with `changes:review` served by the Express example from another. The session (the
 * owner's) sees an environment's requests open first, each key's base version and version now (a
 * key moved since marked), the approvals; it approves a developer's request and rejects another,
 * and is shown no value and no Apply or Cancel. A read-only session shows no review control and the
 * API refuses one forged with its token; a policy that wants signed approvals names the CLI
 * command; a session without `changes:review` has no such section. axe-core in both themes;
 * screenshots go to `test-output/`, and to `docs/` when LATCHKEY_DOCS_SCREENSHOTS=1.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, OWNER_TOKEN, startChangesWorld } from './changes-world.js';
import { expectAccessible, launchBrowser, missingBrowser, screenshot, startReceiver } from './harness.js';
import { freePort, portalFrame, startHost, watchTraffic } from './portal-world.js';

const skip = missingBrowser();
const DOCS = fileURLToPath(new URL('../../../docs/', import.meta.url));

/** Saves a screenshot, and into docs/ when asked (so a test run does not rewrite the pictures). */
async function picture(page: Page, name: string) {
  const path = await screenshot(page, name, false);
  if (process.env['LATCHKEY_DOCS_SCREENSHOTS'] === '1') copyFileSync(path, join(DOCS, `${name}.png`));
}
/** Values no page of the portal may show. */
const VALUES = ['postgres://db-one', 'postgres://db-two', 'key-one', 'key-two', 'key-three', 'flag-on'];

describe.skipIf(skip !== null)(`change requests in the portal${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let world: Awaited<ReturnType<typeof startChangesWorld>>;
  let host: Awaited<ReturnType<typeof startHost>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let traffic: ReturnType<typeof watchTraffic>;
  let owner = '';
  const problems: string[] = [];
  const ids: Record<string, string> = {};

  const frame = (): FrameLocator => page.frameLocator('latchkey-portal iframe');
  const card = (id: string) => frame().locator(`article[data-request="${id}"]`);
  const statusOf = (c: Locator) => c.getAttribute('data-status');
  const statusOnServer = async (id: string) =>
    ((await world.must('GET', `${ENV}/change-requests/${id}`))['change_request'] as { status: string })
      .status;

  /** Opens the host page with `query` and waits for the portal's first request card. */
  const open = async (query: string) => {
    await page.goto(`${host.url}/?${query}`);
    await frame().locator('.embed[data-state="ready"]').waitFor();
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    const hostPort = await freePort();
    world = await startChangesWorld(receiver.certFile, {
      LATCHKEY_PORTAL_ORIGINS: `http://127.0.0.1:${hostPort}`,
    });
    host = await startHost(world.server.url, OWNER_TOKEN, hostPort);
    owner = (await world.must('GET', '/me'))['user'] as string;
    const { dev } = world;
    await world.push(world.owner, [
      { key: 'DB_URL', value: VALUES[0]!, if_version: 0 },
      { key: 'API_KEY', value: VALUES[2]!, if_version: 0 },
      { key: 'FLAG', value: VALUES[5]!, if_version: 0 },
    ]);
    await world.setPolicy({ required_approvals: 1, bypass_roles: ['owner'] });
    ids['db'] = await world.propose(dev, 'Rotate the database URL', [
      { key: 'DB_URL', value: VALUES[1]!, if_version: 1 },
    ]);
    ids['api'] = await world.propose(dev, 'New API key', [
      { key: 'API_KEY', value: VALUES[3]!, if_version: 1 },
    ]);
    ids['flag'] = await world.propose(dev, 'Drop FLAG', [{ key: 'FLAG', delete: true, if_version: 1 }]);
    // The owner moves API_KEY past the policy: the second request's key is no longer where it was.
    await world.push(world.owner, [{ key: 'API_KEY', value: VALUES[4]!, if_version: 1 }], 'incident 7');
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    traffic = watchTraffic(context);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await world?.server.stop();
    await receiver?.close();
  });

  it('shows the requests open first, each key’s versions (a moved one marked), and no value', async () => {
    await open('capabilities=changes:review');
    await frame().getByRole('heading', { name: 'Change requests', level: 1 }).waitFor();
    await frame().locator('article.change-request').first().waitFor();
    expect(await frame().getByRole('tab').count()).toBe(0);
    const titles = await frame().locator('article.change-request h3').allTextContents();
    expect(titles).toEqual(['Drop FLAG', 'New API key', 'Rotate the database URL']);
    const api = card(ids['api']!);
    await api.locator('tr[data-key="API_KEY"].moved').waitFor();
    expect(await api.locator('tr[data-key="API_KEY"] [data-field="now"]').textContent()).toBe(
      '2 moved since',
    );
    expect(await api.locator('[data-field="moved"]').textContent()).toContain('API_KEY changed since');
    const db = card(ids['db']!);
    expect(await db.locator('tr[data-key="DB_URL"] td').allTextContents()).toEqual(['set', '1', '1']);
    expect(await db.locator('[data-field="approvals"]').textContent()).toBe('Approvals: 0 of 1');
    for (const name of ['Show values', 'Apply', 'Cancel request'])
      expect(await frame().getByRole('button', { name }).count(), name).toBe(0);
    expect(await db.getByRole('button', { name: 'Approve' }).count()).toBe(1);
    const text = (await frame().locator('body').textContent()) ?? '';
    for (const value of VALUES) expect(text).not.toContain(value);
    await expectAccessible(await portalFrame(page), 'portal change requests, light');
    await picture(page, 'portal-changes-light');
  });

  it('approves a developer’s request and rejects another, from inside the frame', async () => {
    const db = card(ids['db']!);
    await db.getByLabel('Comment (approve) or reason (reject)').fill('looks right');
    await db.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => statusOf(db)).toBe('approved');
    expect(await db.locator('.approvals li').textContent()).toMatch(
      new RegExp(`^${owner} on .*: looks right$`),
    );
    // Applying is a signing device's: the approved request offers no Apply here.
    expect(await db.getByRole('button', { name: 'Apply' }).count()).toBe(0);
    expect(await statusOnServer(ids['db']!)).toBe('approved');

    const flag = card(ids['flag']!);
    await flag.getByLabel('Comment (approve) or reason (reject)').fill('keep it one more week');
    await flag.getByRole('button', { name: 'Reject' }).click();
    await frame()
      .getByRole('dialog', { name: 'Reject “Drop FLAG”?' })
      .getByRole('button', { name: 'Reject' })
      .click();
    await expect.poll(() => statusOf(flag)).toBe('rejected');
    expect(await flag.locator('[data-field="rejection"]').textContent()).toMatch(
      new RegExp(`^Rejected by ${owner} on .*: keep it one more week$`),
    );
    expect(await statusOnServer(ids['flag']!)).toBe('rejected');
    expect(problems).toEqual([]);
  });

  it('shows a read-only session no review control, and the API refuses one forged with its token', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open('read_only=1&theme=dark&capabilities=audit_webhooks:read,changes:review');
    await frame().getByRole('tab', { name: 'Change requests' }).click();
    await card(ids['api']!).waitFor();
    for (const name of ['Approve', 'Reject', 'Apply', 'Cancel request', 'Show values'])
      expect(await frame().getByRole('button', { name }).count(), name).toBe(0);
    expect(await frame().getByLabel('Comment (approve) or reason (reject)').count()).toBe(0);
    const { token } = traffic.last();
    expect(token).toMatch(/^lkp_/);
    const forged = await world.server.api('POST', `${ENV}/change-requests/${ids['api']}/approve`, {}, token);
    expect(forged.status).toBe(403);
    expect(forged.json['error']).toMatchObject({ code: 'forbidden', status: 403 });
    expect(await statusOnServer(ids['api']!)).toBe('open');
    const embedded = await portalFrame(page);
    expect(await embedded.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await expectAccessible(embedded, 'portal change requests, read-only, dark');
    await picture(page, 'portal-changes-dark');
  });

  it('names the CLI command where the policy wants approvals signed by a device', async () => {
    await world.setPolicy({ required_approvals: 1, require_signed_approvals: true });
    const signed = await world.propose(world.dev, 'Signed only', [
      { key: 'FLAG', value: 'off', if_version: 1 },
    ]);
    await open('capabilities=changes:review');
    const request = card(signed);
    await request.waitFor();
    expect(await request.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await request.locator('.hint').textContent()).toBe(
      `This environment asks for approvals signed with a device: approve with latchkey changes approve ${signed}.`,
    );
    expect(await request.getByRole('button', { name: 'Reject' }).count()).toBe(1);
  });

  it('has no change requests without changes:review', async () => {
    await open('capabilities=audit_webhooks:read,activity:read');
    await frame().getByRole('tab', { name: 'Activity' }).waitFor();
    expect(await frame().getByRole('tab', { name: 'Change requests' }).count()).toBe(0);
    expect(await frame().getByRole('heading', { name: 'Change requests' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
