/**
 * The embedded page with a real core behind it: `frameAncestor: core.portalFrameAncestor` lets only
 * the origin of the session the query names frame the page, while the core still allows it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, createMemoryStore } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { createDashboard } from './index.js';

const HOST = 'https://app.example.test';

/** A built app in miniature: its page alone. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-embed-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<title>portal</title>');
  return dir;
}

const get = (url: string, method = 'GET') => ({ method, url, headers: {} });
const text = (body: unknown) => Buffer.from(body as Uint8Array).toString();

describe('the embedded page', async () => {
  const store = createMemoryStore();
  const core = createCore({ store, portal: { allowedOrigins: [HOST, 'http://127.0.0.1:4000'] } });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: `lk_${'e'.repeat(43)}` });
  const minted = await core.createPortalSession({
    organization: 'acme',
    user: 'admin',
    capabilities: ['audit_webhooks:read'],
    origin: HOST,
  });
  const assetsDir = fakeBuild();
  const dashboard = createDashboard({ assetsDir, frameAncestor: core.portalFrameAncestor });
  const embed = `/dashboard/embed?session=${minted.session_id}`;

  it("may be framed by the session's origin alone, as the core answers it", async () => {
    const response = await dashboard.handle(get(embed));
    expect(response?.status).toBe(200);
    const csp = response?.headers['content-security-policy'];
    expect(csp).toContain(`frame-ancestors ${HOST}`);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response?.headers['x-frame-options']).toBeUndefined();
    expect(response?.headers['cache-control']).toBe('no-store');
    expect(response?.headers['referrer-policy']).toBe('no-referrer');
    expect(text(response?.body)).toBe('<title>portal</title>');
    const head = await dashboard.handle(get(embed, 'HEAD'));
    expect(head?.body).toBeNull();
    expect(head?.headers['content-security-policy']).toContain(`frame-ancestors ${HOST}`);
  });

  it('may be framed by nobody for an unknown or missing session', async () => {
    for (const url of [
      '/dashboard/embed',
      '/dashboard/embed?session=ps_000000000000',
      '/dashboard/embed?session=not-an-id',
    ]) {
      const response = await dashboard.handle(get(url));
      expect(response?.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(response?.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('may be framed by nobody once the host no longer allows the origin, nor without the lookup', async () => {
    const narrower = createCore({ store, portal: { allowedOrigins: ['http://127.0.0.1:4000'] } });
    for (const frameAncestor of [narrower.portalFrameAncestor, undefined]) {
      const response = await createDashboard({ assetsDir, frameAncestor }).handle(get(embed));
      expect(response?.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('keeps its origin after the session ends, so the page can say it ended', async () => {
    await core.expirePortalSessions({ organization: 'acme', user: 'admin' });
    const response = await dashboard.handle(get(embed));
    expect(response?.headers['content-security-policy']).toContain(`frame-ancestors ${HOST}`);
  });

  it('leaves every other page of the dashboard unframable', async () => {
    for (const url of ['/dashboard', `/dashboard/settings?session=${minted.session_id}`]) {
      const response = await dashboard.handle(get(url));
      expect(response?.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response?.headers['x-frame-options']).toBe('DENY');
    }
  });
});
