/**
 * Driving the Activity page in the browser by roles, names and labels: signing in, applying
 * filters, reading the event rows, waiting for Verify's verdict, and watching what the page asks
 * of the API.
 */
import type { Page } from 'playwright-core';

/** Signs in with `token` on the sign-in screen, then opens the Activity page at `query`. */
export async function openActivity(page: Page, base: string, token: string, query = ''): Promise<void> {
  await page.goto(`${base}/dashboard/activity${query}`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  await rowsShown(page);
}

/** The event rows' disclosure buttons. */
export const rowButtons = (page: Page) =>
  page.getByRole('list', { name: 'Events, newest first' }).getByRole('button');

/** Waits for the first screen of events (or the empty note), and answers the rows' count. */
export async function rowsShown(page: Page): Promise<number> {
  await page.locator('ol.events li, p.empty').first().waitFor({ timeout: 20_000 });
  return page.locator('ol.events li').count();
}

/** Each row's seq, type, project and environment, from the data the page renders. */
export async function rows(page: Page) {
  return page.locator('ol.events li').evaluateAll((items) =>
    items.map((item) => ({
      seq: Number(item.getAttribute('data-seq')),
      type: item.getAttribute('data-type') ?? '',
      text: item.querySelector('button')?.textContent ?? '',
    })),
  );
}

/** Picks the filters by their labels and applies them. */
export async function applyFilters(
  page: Page,
  choices: Partial<Record<'Type' | 'Project' | 'Environment', string>>,
) {
  const form = page.getByRole('form', { name: 'Filters' });
  for (const label of ['Type', 'Project', 'Environment'] as const) {
    const value = choices[label];
    if (value === undefined) continue;
    const select = form.getByLabel(label);
    // The options come from the API: wait until the one wanted is there.
    await select.locator(`option:text-is("${value}")`).waitFor({ state: 'attached' });
    await select.selectOption(value);
  }
  await form.getByRole('button', { name: 'Apply filters' }).click();
}

/** Clicks Verify and answers the verdict's text once it is shown. */
export async function verify(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Verify' }).click();
  const verdict = page.locator('.verdict, .verify .field-error');
  await verdict.first().waitFor({ timeout: 60_000 });
  return (await verdict.first().textContent()) ?? '';
}

/** The API paths the page requested, collected from now on. */
export function watchRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) seen.push(url.pathname);
  });
  return seen;
}

/** Whether the page shows a screen of events (not the loading state) all of type `type`. */
export async function onlyType(page: Page, type: string): Promise<boolean> {
  const shown = await rows(page);
  return shown.length > 0 && shown.every((r) => r.type === type);
}
