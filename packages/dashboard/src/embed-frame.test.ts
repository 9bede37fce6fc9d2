/** The embedded page may be framed by its portal session's origin only, and by nothing else. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDashboard } from './index.js';

function build(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-embed-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<meta name="latchkey-portal-origin" content="__LATCHKEY_PORTAL_ORIGIN__">',
  );
  return dir;
}

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers });
const asked: string[] = [];
const dashboard = createDashboard({
  assetsDir: build(),
  frameAncestor: async (id) => {
    asked.push(id);
    if (id === 'ps_known') return 'https://host.example';
    if (id === 'ps_throws') throw new Error('store down');
    if (id === 'ps_forged') return 'https://host.example; script-src *';
    return null;
  },
});
const policy = async (url: string, headers: Record<string, string> = {}) =>
  (await dashboard.handle(get(url, headers)))?.headers ?? {};

describe('the embedded page', () => {
  it("is framed by its session's origin only, never stored, without X-Frame-Options", async () => {
    const headers = await policy('/dashboard/embed?session=ps_known&theme=dark');
    expect(headers['content-security-policy']).toContain('frame-ancestors https://host.example');
    expect(headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['cache-control']).toBe('no-store');
    const page = await dashboard.handle(
      get('/dashboard/embed?session=ps_known', { 'accept-encoding': 'gzip' }),
    );
    expect(Buffer.from(page?.body as Uint8Array).toString()).toBe(
      '<meta name="latchkey-portal-origin" content="https://host.example">',
    );
    // A cached copy's ETag never turns the page into a 304 with another session's policy.
    const again = await dashboard.handle(
      get('/dashboard/embed?session=ps_known', { 'if-none-match': headers['etag']! }),
    );
    expect(again?.status).toBe(200);
  });

  it("is framed by nobody without a known session, a well-formed id, or the core's answer", async () => {
    asked.length = 0;
    for (const url of [
      '/dashboard/embed',
      '/dashboard/embed?session=',
      '/dashboard/embed?session=ps_unknown',
      '/dashboard/embed?session=ps_throws',
      '/dashboard/embed?session=ps_forged',
      '/dashboard/embed?session=not-a-session',
      `/dashboard/embed?session=ps_${'x'.repeat(200)}`,
    ]) {
      const headers = await policy(url);
      expect(headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(headers['x-frame-options'], url).toBe('DENY');
      const page = await dashboard.handle(get(url));
      expect(Buffer.from(page?.body as Uint8Array).toString(), url).toContain('content=""');
    }
    // Malformed ids never reach the core (each URL was asked twice above).
    expect([...new Set(asked)]).toEqual(['ps_unknown', 'ps_throws', 'ps_forged']);
  });

  it('is framed by nobody when the dashboard is given no frameAncestor, and other pages never', async () => {
    const plain = createDashboard({ assetsDir: build() });
    const headers = (await plain.handle(get('/dashboard/embed?session=ps_known')))?.headers ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect((await policy('/dashboard/settings?session=ps_known'))['content-security-policy']).toContain(
      "frame-ancestors 'none'",
    );
  });
});
