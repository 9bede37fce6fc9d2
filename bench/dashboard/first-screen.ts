/**
 * Opens the Activity page in a signed-in tab `runs` times and reads, in the page, when its 50th
 * event row reached the DOM (`performance.now()` counts from the navigation's start) and how long
 * the history request took (Resource Timing).
 */
import type { Browser } from 'playwright-core';

/** One opening of the page. */
export interface FirstScreen {
  /** Navigation start to the 50th row in the DOM, ms. */
  firstScreen: number;
  /** The history request's duration, ms. */
  history: number;
  rows: number;
}

declare global {
  // Set by the observer the benchmark adds to the page (through the DevTools protocol, not the CSP).
  var __firstScreen: number | undefined;
}

/** The measures of `runs` openings, the first with a cold cache. */
export async function measureFirstScreen(browser: Browser, base: string, token: string, runs: number) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/activity`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('ol.events li').nth(49).waitFor({ timeout: 60_000 });
  await context.clearCookies();
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('ol.events li').length >= 50) {
        globalThis.__firstScreen = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const results: FirstScreen[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`${base}/dashboard/activity`);
    await page.waitForFunction(() => globalThis.__firstScreen !== undefined, undefined, { timeout: 60_000 });
    results.push(
      await page.evaluate(() => {
        const history = performance.getEntriesByType('resource').find((e) => /\/history\?/.test(e.name)) as
          | PerformanceResourceTiming
          | undefined;
        return {
          firstScreen: globalThis.__firstScreen!,
          history: history?.duration ?? Number.NaN,
          rows: document.querySelectorAll('ol.events li').length,
        };
      }),
    );
  }
  await context.close();
  return results;
}
