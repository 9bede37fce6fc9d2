/**
 * The Activity page in Chromium against the Express example on PostgreSQL with a seeded history of
 * 5,000 events: filters (and the URL that reproduces them), an event's keys and versions, Verify
 * (up to the head, then naming an event edited in the database), and an export that the CLI's
 * `latchkey activity verify` accepts. axe-core in both themes; screenshots for the docs.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { SqlDriver } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyFilters,
  onlyType,
  openActivity,
  rowButtons,
  rows,
  rowsShown,
  verify,
} from './activity-page.js';
import {
  ADMIN_TOKEN,
  freshDatabase,
  seedHistory,
  setUpOrganization,
  startPostgresServer,
  tamper,
} from './activity-world.js';
import { expectAccessible, launchBrowser, missingBrowser, screenshot, toDocs } from './harness.js';

const skip = missingBrowser();
const CLI = fileURLToPath(new URL('../../cli/bin/latchkey.mjs', import.meta.url));

describe.skipIf(skip !== null)(`the Activity page${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: SqlDriver;
  let server: Awaited<ReturnType<typeof startPostgresServer>>;
  let browser: Browser;
  let page: Page;
  let head = 0;
  const problems: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase('lk_activity');
    server = await startPostgresServer(database.url);
    await setUpOrganization(server.api);
    db = await pgDriver(database.url);
    head = (await seedHistory(db, 5_000)).seq;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    // Chromium logs every error answer as a console error; the 401 of the first `/me` before
    // signing in is the app's way to learn it must ask for a token, not a script error.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/the server responded with a status of 401/.test(m.text()))
        problems.push(m.text());
    });
    await openActivity(page, server.url, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.close();
    await database?.drop();
  });

  it('shows the organization’s history newest first, 50 at a time, with Load more', async () => {
    // The first screen may still be settling right after sign-in (the page lays itself out before
    // its history arrives, once in a busy run): wait for its rows rather than read them once.
    await expect.poll(async () => (await rows(page)).length, { timeout: 20_000 }).toBe(50);
    const first = await rows(page);
    expect(first[0]!.seq).toBe(head);
    expect(first.map((r) => r.seq)).toEqual([...first.map((r) => r.seq)].sort((a, b) => b - a));
    expect(await page.getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('ol.events li').count()).toBe(100);
    expect((await rows(page))[99]!.seq).toBe(head - 99);
    await expectAccessible(page, 'activity, light');
  });

  it('filters by type and environment, shows only those, and the URL reproduces the view', async () => {
    await applyFilters(page, { Type: 'push_force_overwrite', Project: 'web', Environment: 'prod' });
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe('?type=push_force_overwrite&project=web&environment=prod');
    await expect.poll(() => onlyType(page, 'push_force_overwrite'), { timeout: 10_000 }).toBe(true);
    const shown = await rows(page);
    expect(shown.length).toBe(50);
    for (const row of shown) expect(row.text).toContain('web / prod');
    await page.reload();
    await rowsShown(page);
    expect(await rows(page)).toEqual(shown);
    const form = page.getByRole('form', { name: 'Filters' });
    expect(await form.getByLabel('Type').inputValue()).toBe('push_force_overwrite');
    expect(await form.getByLabel('Environment').inputValue()).toBe('prod');
  });

  it('opens a push_force_overwrite to its keys, versions, data and place in the chain', async () => {
    const button = rowButtons(page).first();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const detail = page.locator(`#${await button.getAttribute('aria-controls')}`);
    const table = detail.getByRole('table');
    await table.waitFor();
    const cells = await table.getByRole('row').nth(1).locator('th, td').allTextContents();
    const seq = (await rows(page))[0]!.seq;
    expect(cells[0]).toBe('DB_URL');
    expect(cells.slice(1).map(Number)).toEqual(expect.arrayContaining([expect.any(Number)]));
    expect(Number(cells[3])).toBe(Number(cells[1]) + 1);
    expect(await detail.textContent()).toContain(`${seq}`);
    expect(await detail.locator('code.hash').count()).toBe(2);
    await expectAccessible(page, 'activity, event open');
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
  });

  it('verifies the whole chain up to the head against the signed checkpoint, naming the key', async () => {
    await page.goto(`${server.url}/dashboard/activity`);
    await rowsShown(page);
    const checkpoint = await server.api('GET', '/organizations/acme/activity/checkpoint');
    const verdict = await verify(page);
    expect(verdict).toContain(`Verified up to seq ${checkpoint['seq']}`);
    expect(checkpoint['seq']).toBeGreaterThanOrEqual(head);
    expect(verdict).toContain(server.publicKey);
  });

  it('exports NDJSON that `latchkey activity verify` accepts, and CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export NDJSON' }).click(),
    ]);
    const file = join(server.dir, 'export.ndjson');
    await download.saveAs(file);
    const run = await promisify(execFile)(
      process.execPath,
      [CLI, 'activity', 'verify', file, '--public-key', server.publicKey, '--organization', 'acme'],
      { env: { ...process.env, LATCHKEY_CONFIG_DIR: join(server.dir, 'config') } },
    );
    expect(run.stdout).toContain('chain intact from its first event');
    expect(run.stdout).toContain('signed by the given key: valid');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^acme-activity-.*\.csv$/);
  });

  it('names the event whose row was edited in the database', async () => {
    const edited = head - 1234;
    await tamper(db, edited);
    await page.reload();
    await rowsShown(page);
    const verdict = await verify(page);
    expect(verdict).toContain(`Verification failed at event seq ${edited}`);
    expect(verdict).toContain('does not match its hash');
  });

  it('passes axe-core in dark mode and at 390 px (the screenshots for the docs)', async () => {
    await page.goto(`${server.url}/dashboard/activity`);
    await rowsShown(page);
    await rowButtons(page).nth(2).click();
    toDocs(await screenshot(page, 'activity-1280', false), 'activity-1280');
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await narrow.goto(`${server.url}/dashboard/activity`);
    await narrow.getByLabel('API token').fill(ADMIN_TOKEN);
    await narrow.getByRole('button', { name: 'Sign in' }).click();
    await rowsShown(narrow);
    await narrow.getByRole('heading', { name: 'History' }).evaluate((h) => h.scrollIntoView());
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(narrow, 'activity, dark, 390 px');
    toDocs(await screenshot(narrow, 'activity-390', false), 'activity-390');
    await narrow.close();
    expect(problems).toEqual([]);
  });
});
