import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createDashboard } from './index.js';

/** A built app in miniature: the page and one script, with the build's placeholders. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<meta name="latchkey-api" content="__LATCHKEY_API_BASE__"><script src="/__latchkey_dashboard__/assets/app-1.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'app-1.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
  return dir;
}

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers });
const text = (body: unknown) => Buffer.from(body as Uint8Array).toString();

describe('dashboard handler', () => {
  const dashboard = createDashboard({ assetsDir: fakeBuild(), apiBasePath: '/api/v2' });

  it('answers the page for every route of the app, with the mount points filled in', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/settings/notifications/audit-webhooks?x=1']) {
      const response = await dashboard.handle(get(url));
      expect(response?.status).toBe(200);
      expect(response?.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response?.headers['cache-control']).toBe('no-cache');
      expect(text(response?.body)).toBe(
        '<meta name="latchkey-api" content="/api/v2"><script src="/dashboard/assets/app-1.js"></script>',
      );
    }
  });

  it('leaves other paths to the host', async () => {
    for (const url of ['/', '/api/v2/me', '/dashboards', '/dashboardx/settings']) {
      expect(await dashboard.handle(get(url))).toBeNull();
    }
  });

  it('serves built files immutable, gzipped when asked, and 304 for a known ETag', async () => {
    const plain = await dashboard.handle(get('/dashboard/assets/app-1.js'));
    expect(plain?.status).toBe(200);
    expect(plain?.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain?.headers['content-encoding']).toBeUndefined();
    const zipped = await dashboard.handle(
      get('/dashboard/assets/app-1.js', { 'accept-encoding': 'br, gzip' }),
    );
    expect(zipped?.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped?.body as Uint8Array).toString()).toBe(text(plain?.body));
    const refused = await dashboard.handle(
      get('/dashboard/assets/app-1.js', { 'accept-encoding': 'gzip;q=0' }),
    );
    expect(refused?.headers['content-encoding']).toBeUndefined();
    const again = await dashboard.handle(
      get('/dashboard/assets/app-1.js', { 'if-none-match': plain!.headers['etag']! }),
    );
    expect(again?.status).toBe(304);
    expect(again?.body).toBeNull();
  });

  it('sends a strict content security policy and refuses framing', async () => {
    const response = await dashboard.handle(get('/dashboard'));
    expect(response?.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response?.headers['x-content-type-options']).toBe('nosniff');
    expect(response?.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers 404 for a missing file, never the page, and cannot be walked out of its folder', async () => {
    for (const url of [
      '/dashboard/assets/missing.js',
      '/dashboard/favicon.ico',
      '/dashboard/assets/../index.html',
      '/dashboard/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      expect((await dashboard.handle(get(url)))?.status, url).toBe(404);
    }
  });

  it('answers 405 to other methods and HEAD without a body', async () => {
    expect((await dashboard.handle({ method: 'POST', url: '/dashboard', headers: {} }))?.status).toBe(405);
    const head = await dashboard.handle({ method: 'HEAD', url: '/dashboard', headers: {} });
    expect(head?.status).toBe(200);
    expect(head?.body).toBeNull();
  });

  it('says how to build it when the app is not built', async () => {
    const empty = createDashboard({ assetsDir: mkdtempSync(join(tmpdir(), 'dashboard-empty-')) });
    const response = await empty.handle(get('/dashboard'));
    expect(response?.status).toBe(503);
    expect(text(response?.body)).toContain('pnpm --filter @latchkey/dashboard build');
  });

  it('mounts anywhere and refuses a malformed mount point', async () => {
    const elsewhere = createDashboard({ assetsDir: fakeBuild(), basePath: '/admin/ui/' });
    expect(text((await elsewhere.handle(get('/admin/ui/settings')))?.body)).toContain(
      '/admin/ui/assets/app-1.js',
    );
    expect(await elsewhere.handle(get('/dashboard'))).toBeNull();
    expect(() => createDashboard({ basePath: 'dashboard' })).toThrow(TypeError);
    expect(() => createDashboard({ basePath: '/a b' })).toThrow(TypeError);
  });
});
