/**
 * The Activity page's Transparency panel in Chromium against the Express example on PostgreSQL:
 * with two witnesses registered and one cosignature posted through the API (made with
 * `cosignCheckpoint` from `@latchkey/core/client`, as a witness would), an owner sees the latest
 * checkpoint's tree size, root hash and verifier key, and which witness cosigned it; an admin sees
 * the checkpoint and the cosigning witness without asking for the owner-only witness list. axe-core
 * clean in both themes.
 */
import { cosignCheckpoint } from '@latchkey/core/client';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openActivity, watchRequests } from './activity-page.js';
import { ADMIN_TOKEN, freshDatabase, setUpOrganization, startPostgresServer } from './activity-world.js';
import { expectAccessible, launchBrowser, missingBrowser, screenshot } from './harness.js';

const skip = missingBrowser();
const ORG = '/organizations/acme';

interface Checkpoint {
  tree_size: number;
  root_hash: string;
  verifier_key: string;
  note: string;
  cosignatures: { witness: string; timestamp: number }[];
}

/** A witness's Ed25519 key pair, in WebCrypto as `cosignCheckpoint` takes it. */
async function witnessKey() {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey };
}

/** The panel's facts, by their terms. */
async function facts(panel: Locator): Promise<Record<string, string>> {
  const list = panel.getByRole('definition');
  const terms = await panel.getByRole('term').allTextContents();
  const values = await list.allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, values[i]!.trim()]));
}

/** The witnesses' rows: name and the "cosigned" cell. */
async function witnessRows(panel: Locator) {
  const table = panel.getByRole('table', { name: 'Witnesses of this checkpoint' });
  await table.waitFor();
  const rows = table.locator('tbody tr');
  return rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.querySelector('th')?.textContent ?? '',
      cosigned: (tr.querySelector('td')?.textContent ?? '').trim(),
    })),
  );
}

describe.skipIf(skip !== null)(`the Transparency panel${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let server: Awaited<ReturnType<typeof startPostgresServer>>;
  let browser: Browser;
  let page: Page;
  let cosigned: Checkpoint;
  let witness: Awaited<ReturnType<typeof witnessKey>>;
  let adminToken = '';
  const problems: string[] = [];

  beforeAll(async () => {
    database = await freshDatabase('lk_transparency');
    server = await startPostgresServer(database.url);
    await setUpOrganization(server.api);
    await server.api('POST', `${ORG}/members`, { user: 'auditor', role: 'admin' });
    adminToken = (await server.api('POST', `${ORG}/tokens`, { user: 'auditor', name: 'browser' }))[
      'token'
    ] as string;
    // Two witnesses; only the first cosigns the head, after both are registered (each is an event).
    const first = await witnessKey();
    witness = first;
    const second = await witnessKey();
    for (const [name, key] of [
      ['witness.example/one', first],
      ['witness.example/two', second],
    ] as const) {
      await server.api('POST', `${ORG}/activity/witnesses`, {
        name,
        public_key: Buffer.from(key.publicKey).toString('base64'),
      });
    }
    const head = (await server.api('GET', `${ORG}/activity/checkpoint`)) as unknown as Checkpoint;
    const cosignature = await cosignCheckpoint({ note: head.note, name: 'witness.example/one', ...first });
    await server.api('POST', `${ORG}/activity/checkpoint/cosignatures`, { cosignature });
    cosigned = (await server.api('GET', `${ORG}/activity/checkpoint`)) as unknown as Checkpoint;
    expect(cosigned.tree_size).toBe(head.tree_size);
    expect(cosigned.cosignatures.map((c) => c.witness)).toEqual(['witness.example/one']);

    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/the server responded with a status of 401/.test(m.text()))
        problems.push(m.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  it('shows an owner the latest checkpoint and which registered witness cosigned it', async () => {
    await openActivity(page, server.url, ADMIN_TOKEN);
    const panel = page.getByRole('region', { name: 'Transparency' });
    await panel.getByRole('table').waitFor();
    expect(await facts(panel)).toMatchObject({
      'Tree size': `${cosigned.tree_size} events`,
      'Root hash': cosigned.root_hash,
      'Verifier key': cosigned.verifier_key,
    });
    const rows = await witnessRows(panel);
    expect(rows.map((r) => r.name)).toEqual(['witness.example/one', 'witness.example/two']);
    expect(rows[0]!.cosigned).toMatch(/^Yes, at /);
    expect(rows[1]!.cosigned).toBe('Not yet');
    await panel.getByText('The signed note (C2SP checkpoint)').click();
    expect(await panel.locator('pre').textContent()).toBe(cosigned.note);
    await expectAccessible(page, 'activity, transparency, light');
    await screenshot(page, 'transparency-1280', false);
  });

  it('refreshes to a new head, whose witnesses have not cosigned it yet', async () => {
    await server.api('POST', `${ORG}/projects`, { slug: 'docs' });
    const panel = page.getByRole('region', { name: 'Transparency' });
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(async () => (await facts(panel))['Tree size']).toBe(`${cosigned.tree_size + 1} events`);
    const rows = await witnessRows(panel);
    expect(rows.map((r) => r.cosigned)).toEqual(['Not yet', 'Not yet']);
  });

  it('shows an admin the checkpoint and its cosigning witness, without the owner-only witness list', async () => {
    const head = (await server.api('GET', `${ORG}/activity/checkpoint`)) as unknown as Checkpoint;
    const cosignature = await cosignCheckpoint({ note: head.note, name: 'witness.example/one', ...witness });
    await server.api('POST', `${ORG}/activity/checkpoint/cosignatures`, { cosignature });
    const dark = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    dark.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    const requests = watchRequests(dark);
    await openActivity(dark, server.url, adminToken);
    const panel = dark.getByRole('region', { name: 'Transparency' });
    const rows = await witnessRows(panel);
    expect(await facts(panel)).toMatchObject({
      'Tree size': `${head.tree_size} events`,
      'Root hash': head.root_hash,
      'Verifier key': cosigned.verifier_key,
    });
    expect(requests).toContain('/api/v2/organizations/acme/activity/checkpoint');
    expect(requests.some((path) => path.endsWith('/activity/witnesses'))).toBe(false);
    // Only the witness that cosigned shows: the registered ones are for owners to list.
    expect(rows).toEqual([{ name: 'witness.example/one', cosigned: expect.stringMatching(/^Yes, at /) }]);
    expect(await dark.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(dark, 'activity, transparency, admin, dark, 390 px');
    await dark.close();
    expect(problems).toEqual([]);
  });
});
