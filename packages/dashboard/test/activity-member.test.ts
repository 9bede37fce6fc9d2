/**
 * The Activity page for a developer granted one environment (web/staging) on PostgreSQL with a
 * seeded history of 5,000 events: only that environment's events (and the project's own), never an
 * organization-wide view, control or request, and a Verify that says what it could check.
 */
import type { SqlDriver } from '@latchkey/store-postgres';
import { pgDriver } from '@latchkey/store-postgres/pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFilters, onlyType, openActivity, rows, verify, watchRequests } from './activity-page.js';
import { freshDatabase, seedHistory, setUpOrganization, startPostgresServer } from './activity-world.js';
import { expectAccessible, launchBrowser, missingBrowser } from './harness.js';

const skip = missingBrowser();

describe.skipIf(skip !== null)(
  `the Activity page for a developer${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let db: SqlDriver;
    let server: Awaited<ReturnType<typeof startPostgresServer>>;
    let browser: Browser;
    let page: Page;
    let requests: string[];

    beforeAll(async () => {
      database = await freshDatabase('lk_activity_dev');
      server = await startPostgresServer(database.url);
      const { developerToken } = await setUpOrganization(server.api);
      db = await pgDriver(database.url);
      await seedHistory(db, 5_000);
      browser = await launchBrowser();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
      requests = watchRequests(page);
      await openActivity(page, server.url, developerToken);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await db?.close();
      await database?.drop();
    });

    it('shows only the granted environment’s events and the project’s own, through the project’s history', async () => {
      const shown = await rows(page);
      expect(shown.length).toBe(50);
      for (const row of shown) expect(row.text).toMatch(/· web(?: \/ staging)? ·/);
      expect(requests.some((path) => path.endsWith('/organizations/acme/history'))).toBe(false);
      expect(requests).toContain('/api/v2/organizations/acme/projects/web/history');
      // Nothing of the checkpoint: no Transparency panel (and, below, no request for it).
      expect(await page.getByRole('region', { name: 'Transparency' }).count()).toBe(0);
      expect(await page.getByText('Verifier key').count()).toBe(0);
      await expectAccessible(page, 'activity, developer, dark');
    });

    it('offers no organization-wide view: no "All projects", no other project or environment, no export', async () => {
      const form = page.getByRole('form', { name: 'Filters' });
      const projects = await form.getByLabel('Project').locator('option').allTextContents();
      expect(projects).toEqual(['web']);
      await expect
        .poll(() => form.getByLabel('Environment').locator('option').allTextContents())
        .toEqual(['All granted environments', 'staging']);
      expect(await page.getByRole('button', { name: 'Export NDJSON' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
      await applyFilters(page, { Type: 'push_conflict', Environment: 'staging' });
      await expect.poll(() => onlyType(page, 'push_conflict'), { timeout: 10_000 }).toBe(true);
      for (const row of await rows(page)) expect(row.text).toContain('web / staging');
      expect(requests).toContain('/api/v2/organizations/acme/projects/web/environments/staging/history');
    });

    it('verifies the events it loaded and says the whole chain needs organization-wide read', async () => {
      const verdict = await verify(page);
      expect(verdict).toContain('loaded events match their hashes');
      expect(verdict).toContain('owners and admins');
      expect(requests.some((path) => /\/activity\/(export|checkpoint)$/.test(path))).toBe(false);
    });

    it('gets the API’s refusal, not the organization’s history, from a hand-made deep link', async () => {
      const response = await page.request.get(`${server.url}/api/v2/organizations/acme/history`, {
        headers: {
          authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('latchkey.token'))}`,
        },
      });
      expect(response.status()).toBe(403);
      await page.goto(`${server.url}/dashboard/activity?project=api`);
      await page.getByRole('alert').waitFor();
      expect(await page.locator('ol.events li').count()).toBe(0);
    });
  },
);
