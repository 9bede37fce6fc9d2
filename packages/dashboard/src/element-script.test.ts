/** The handler serves the `<latchkey-portal>` element's script to host pages on any origin. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDashboard } from './index.js';

function build(withElement: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-element-'));
  writeFileSync(join(dir, 'index.html'), '<p>app</p>');
  if (withElement) writeFileSync(join(dir, 'latchkey-portal.js'), 'customElements.define("x", class {});');
  return dir;
}

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers });

describe('the element script', () => {
  it('is served at {basePath}/latchkey-portal.js, revalidated, to any origin', async () => {
    const dashboard = createDashboard({ assetsDir: build(true), basePath: '/admin' });
    const answer = await dashboard.handle(get('/admin/latchkey-portal.js'));
    expect(answer?.status).toBe(200);
    expect(answer?.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer?.headers['cache-control']).toBe('no-cache');
    expect(answer?.headers['access-control-allow-origin']).toBe('*');
    expect(answer?.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(Buffer.from(answer?.body as Uint8Array).toString()).toContain('customElements.define');
    const again = await dashboard.handle(
      get('/admin/latchkey-portal.js', { 'if-none-match': answer!.headers['etag']! }),
    );
    expect(again?.status).toBe(304);
    expect(again?.headers['access-control-allow-origin']).toBe('*');
  });

  it('is 404 when the build has none, and no other file gets its headers', async () => {
    const dashboard = createDashboard({ assetsDir: build(false) });
    expect((await dashboard.handle(get('/dashboard/latchkey-portal.js')))?.status).toBe(404);
    const page = await dashboard.handle(get('/dashboard'));
    expect(page?.headers['access-control-allow-origin']).toBeUndefined();
  });
});
