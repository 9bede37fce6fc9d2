/**
 * The Change requests page in Chromium against the Express example server: an environment's
 * requests open first, each with its keys, the version each was based on and the version now (a
 * key a bypass push moved is marked before anyone presses Apply), its approvals; values on demand
 * (recorded); approve, apply, a refused apply that leaves the request conflicted, reject with a
 * reason; a developer who may only cancel their own; a policy that wants signed approvals sends
 * the approver to the CLI. axe-core in both themes; screenshots under `test-output/`.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, OWNER_TOKEN, startChangesWorld } from './changes-world.js';
import {
  expectAccessible,
  launchBrowser,
  missingBrowser,
  screenshot,
  startReceiver,
  toDocs,
} from './harness.js';

const skip = missingBrowser();

describe.skipIf(skip !== null)(`the Change requests page${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let world: Awaited<ReturnType<typeof startChangesWorld>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const ids: Record<string, string> = {};

  const card = (p: Page, id: string) => p.locator(`article[data-request="${id}"]`);
  const titles = (p: Page) => p.locator('article.change-request h3').allTextContents();
  const statusOf = (c: Locator) => c.getAttribute('data-status');

  /** Signs in with `token` on `p` and opens the page. */
  const open = async (p: Page, token: string) => {
    await p.goto(`${world.server.url}/dashboard/changes`);
    await p.getByLabel('API token').fill(token);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'Change requests', level: 1 }).waitFor();
    try {
      await p.locator('article.change-request').first().waitFor({ timeout: 20_000 });
    } catch (error) {
      // What the page showed instead, for the failure's reader.
      await screenshot(p, 'changes-open-failed');
      throw error;
    }
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    world = await startChangesWorld(receiver.certFile);
    const { owner, dev } = world;
    await world.push(owner, [
      { key: 'DB_URL', value: 'one', if_version: 0 },
      { key: 'API_KEY', value: 'k1', if_version: 0 },
      { key: 'OLD_FLAG', value: 'on', if_version: 0 },
    ]);
    await world.setPolicy({ required_approvals: 1, bypass_roles: ['owner'] });
    ids['old'] = await world.propose(dev, 'Old idea', [{ key: 'OLD_FLAG', value: 'off', if_version: 1 }]);
    await world.must('POST', `${ENV}/change-requests/${ids['old']}/cancel`, {}, dev.token);
    ids['db'] = await world.propose(dev, 'Rotate the database URL', [
      { key: 'DB_URL', value: 'two', if_version: 1 },
    ]);
    ids['api'] = await world.propose(dev, 'New API key', [{ key: 'API_KEY', value: 'k2', if_version: 1 }]);
    ids['flag'] = await world.propose(dev, 'Drop OLD_FLAG', [
      { key: 'OLD_FLAG', delete: true, if_version: 1 },
    ]);
    // The owner moves API_KEY past the policy: the second request's key is no longer where it was.
    await world.push(owner, [{ key: 'API_KEY', value: 'k3', if_version: 1 }], 'incident 42');
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/the server responded with a status of (401|409)/.test(m.text()))
        problems.push(m.text());
    });
    await open(page, world.carol.token);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await world?.server.stop();
    await receiver?.close();
  });

  it('lists the environment’s requests open first, a moved key marked, no value shown', async () => {
    expect(new URL(page.url()).search).toBe('?project=web&environment=prod');
    expect(await page.getByRole('link', { name: 'Change requests' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await titles(page)).toEqual([
      'Drop OLD_FLAG',
      'New API key',
      'Rotate the database URL',
      'Old idea',
    ]);
    expect(await statusOf(card(page, ids['old']!))).toBe('cancelled');
    expect(await page.locator('.policy').textContent()).toMatch(
      /1 approval by owner, admin \(not the author\)/,
    );
    const api = card(page, ids['api']!);
    await expect.poll(() => api.locator('tr.moved').count()).toBe(1);
    expect(await api.locator('tr[data-key="API_KEY"]').textContent()).toMatch(/API_KEYset12\s*moved since/);
    expect(await api.locator('[data-field="moved"]').textContent()).toMatch(/API_KEY changed since/);
    const db = card(page, ids['db']!);
    await expect.poll(() => db.locator('tr[data-key="DB_URL"] [data-field="now"]').textContent()).toBe('1');
    expect(await db.locator('tr.moved').count()).toBe(0);
    expect(await db.locator('[data-field="author"]').textContent()).toBe('dev');
    expect(await db.locator('[data-field="approvals"]').textContent()).toBe('Approvals: 0 of 1');
    expect(await page.locator('main').textContent()).not.toMatch(/\btwo\b|\bk2\b/);
    await expectAccessible(page, 'change requests, admin, light');
    toDocs(await screenshot(page, 'changes-admin-light', false), 'change-requests');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'change requests, admin, dark');
    await screenshot(page, 'changes-admin-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the proposed values on demand, and the read is recorded', async () => {
    const db = card(page, ids['db']!);
    await db.getByRole('button', { name: 'Show values' }).click();
    await expect.poll(() => db.locator('tr[data-key="DB_URL"]').textContent()).toMatch(/two/);
    expect(await db.locator('[data-field="result"]').textContent()).toMatch(/recorded/);
    const { json } = await world.server.api('GET', `${ENV}/history?limit=5`, undefined, OWNER_TOKEN);
    expect((json['events'] as { type: string }[]).map((e) => e.type)).toContain('change_request_values_read');
    await db.getByRole('button', { name: 'Hide values' }).click();
    await expect.poll(() => db.locator('tr[data-key="DB_URL"]').textContent()).not.toMatch(/two/);
  });

  it('approves a request and applies it', async () => {
    const db = card(page, ids['db']!);
    await db.getByLabel('Comment (approve) or reason (reject)').fill('looks right');
    await db.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => statusOf(db)).toBe('approved');
    expect(await db.locator('.approvals li').textContent()).toMatch(/carol on .*: looks right/);
    expect(await db.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await db.getByRole('button', { name: 'Apply' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply “Rotate the database URL”?' });
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => statusOf(db)).toBe('applied');
    expect(await db.locator('[data-field="result"]').textContent()).toMatch(/DB_URL is now version 2/);
    expect(await db.locator('[data-field="applied"]').textContent()).toMatch(/Applied as event evt_/);
    const { json } = await world.server.api('GET', `${ENV}/secrets`, undefined, OWNER_TOKEN);
    expect(json['secrets']).toContainEqual(
      expect.objectContaining({ key: 'DB_URL', value: 'two', version: 2 }),
    );
  });

  it('refuses to apply a request whose key moved: nothing written, the request conflicted', async () => {
    const api = card(page, ids['api']!);
    await api.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => statusOf(api)).toBe('approved');
    await api.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => statusOf(api)).toBe('conflicted');
    expect(await api.locator('[data-field="result"]').textContent()).toMatch(/nothing was written/);
    const { json } = await world.server.api('GET', `${ENV}/secrets`, undefined, OWNER_TOKEN);
    expect(json['secrets']).toContainEqual(
      expect.objectContaining({ key: 'API_KEY', value: 'k3', version: 2 }),
    );
    await expectAccessible(page, 'change requests after a conflict');
  });

  it('rejects only with a reason, after asking', async () => {
    const flag = card(page, ids['flag']!);
    await flag.getByRole('button', { name: 'Reject' }).click();
    expect(await flag.getByText('A reason is needed to reject.').isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await flag.getByLabel('Comment (approve) or reason (reject)').fill('keep it one more week');
    await flag.getByRole('button', { name: 'Reject' }).click();
    await page
      .getByRole('dialog', { name: 'Reject “Drop OLD_FLAG”?' })
      .getByRole('button', { name: 'Reject' })
      .click();
    await expect.poll(() => statusOf(flag)).toBe('rejected');
    expect(await flag.locator('[data-field="rejection"]').textContent()).toMatch(
      /Rejected by carol on .*: keep it one more week/,
    );
    expect(problems).toEqual([]);
  });

  it('offers a developer no review, only the cancel of their own request', async () => {
    const mine = await world.propose(world.dev, 'Developer’s own', [
      { key: 'OLD_FLAG', value: 'off', if_version: 1 },
    ]);
    const devPage = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
    try {
      await open(devPage, world.dev.token);
      expect((await titles(devPage))[0]).toBe('Developer’s own');
      for (const name of ['Approve', 'Reject', 'Apply']) {
        expect(await devPage.getByRole('button', { name, exact: true }).count()).toBe(0);
      }
      expect(await devPage.getByLabel('Comment (approve) or reason (reject)').count()).toBe(0);
      await expectAccessible(devPage, 'change requests, developer, dark');
      await screenshot(devPage, 'changes-developer-dark');
      // Readable from 390 px wide: nothing wider than the screen.
      await devPage.setViewportSize({ width: 390, height: 844 });
      expect(await devPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(devPage, 'change requests, developer, dark, 390 px');
      await screenshot(devPage, 'changes-developer-390', false);
      await devPage.setViewportSize({ width: 1280, height: 900 });
      const own = card(devPage, mine);
      await own.getByRole('button', { name: 'Cancel request' }).click();
      await expect.poll(() => statusOf(own)).toBe('cancelled');
      expect(await devPage.getByRole('button', { name: 'Cancel request' }).count()).toBe(0);
    } finally {
      await devPage.close();
    }
  });

  it('sends the approver to the CLI where the policy wants approvals signed by a device', async () => {
    await world.setPolicy({ required_approvals: 1, require_signed_approvals: true });
    const signed = await world.propose(world.dev, 'Signed only', [
      { key: 'OLD_FLAG', value: 'off', if_version: 1 },
    ]);
    await page.reload();
    await page.locator('article.change-request').first().waitFor();
    const request = card(page, signed);
    expect(await request.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await request.locator('.hint').textContent()).toBe(
      `This environment asks for approvals signed with a device: approve with latchkey changes approve ${signed}.`,
    );
    // Rejecting needs no signature.
    expect(await request.getByRole('button', { name: 'Reject' }).count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
