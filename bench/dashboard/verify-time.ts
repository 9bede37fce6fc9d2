/**
 * How long the Activity page's Verify takes over the whole log: in a signed-in tab, the time from
 * the click to the verdict (the browser streams the organization's export and walks it with
 * WebCrypto), and the verdict's first line.
 */
import type { Browser } from 'playwright-core';

/** One Verify over the whole chain. */
export interface VerifyTime {
  ms: number;
  verdict: string;
}

/** Signs in with `token`, opens the Activity page and times one Verify. */
export async function measureVerify(browser: Browser, base: string, token: string): Promise<VerifyTime> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/dashboard/activity`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('ol.events li').nth(49).waitFor({ timeout: 60_000 });
  const began = Date.now();
  await page.getByRole('button', { name: 'Verify' }).click();
  const verdict = page.locator('.verdict, .verify .field-error').first();
  await verdict.waitFor({ timeout: 30 * 60_000 });
  const ms = Date.now() - began;
  const text = ((await verdict.textContent()) ?? '').split('.')[0]!.trim();
  await page.close();
  return { ms, verdict: text };
}
