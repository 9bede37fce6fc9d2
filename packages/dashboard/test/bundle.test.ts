/**
 * The built app (made by the test run's global setup): under 100 KB of gzipped JavaScript, and
 * nothing loaded from anywhere but the server itself, so it works offline and behind a strict CSP.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url));

describe('the built dashboard', () => {
  it('ships under 100 KB of gzipped JavaScript', () => {
    const scripts = readdirSync(join(ASSETS, 'assets')).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (sum, name) => sum + gzipSync(readFileSync(join(ASSETS, 'assets', name))).length,
      0,
    );
    expect(gzipped).toBeLessThan(100 * 1024);
  });

  it('loads its script and style from its own assets only, with no inline script', () => {
    const html = readFileSync(join(ASSETS, 'index.html'), 'utf8');
    const sources = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(2);
    for (const source of sources)
      expect(source, source).toMatch(/^(\/__latchkey_dashboard__\/assets\/|data:)/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\bstyle="/);
  });
});
