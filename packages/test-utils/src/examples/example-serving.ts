/** What an example server serves once started: the API, the dashboard, webhooks, metrics, pushes. */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';
import { expect, it } from 'vitest';
import { EXAMPLE_TOKEN, sendJsonAs } from './client.js';
import type { StartedExample } from './start-example.js';

/** Registers the tests that share the one server `started()` returns. */
export function describeServing(started: () => StartedExample): void {
  const send = sendJsonAs(() => started().url, EXAMPLE_TOKEN);

  it('prints the real bound URL on 127.0.0.1', () => {
    expect(started().line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(started().url).port)).toBeGreaterThan(0);
  });

  it('answers the liveness and readiness probes without credentials, with nothing secret', async () => {
    const health = await fetch(`${started().url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${started().url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    const text = await ready.text();
    expect(JSON.parse(text)).toMatchObject({
      status: 'ready',
      checks: {
        store: { status: 'ok' },
        migrations: { status: 'ok' },
        keyring: { status: 'ok' },
        deliveries: { status: 'ok', engine: 'running' },
      },
    });
    expect(text).not.toContain(EXAMPLE_TOKEN);
  });

  it('bootstraps organization acme with the admin token', async () => {
    const org = await send('GET', '/api/v2/organizations/acme');
    expect(org.status).toBe(200);
    expect(await org.json()).toMatchObject({ slug: 'acme' });
    const anonymous = await fetch(`${started().url}/api/v2/organizations/acme`);
    expect(anonymous.status).toBe(401);
  });

  it('serves the dashboard beside the API: its page on every route of the app, its built files, nothing else', async () => {
    const url = started().url;
    for (const path of ['/dashboard', '/dashboard/settings/notifications/audit-webhooks']) {
      const page = await fetch(url + path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await page.text();
      expect(html).toContain('<meta name="latchkey-api" content="/api/v2" />');
      const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const js = await fetch(url + script!, { headers: { 'accept-encoding': 'gzip' } });
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(js.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${url}/dashboard/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${url}/dashboard`, { method: 'POST' })).status).toBe(405);
  });

  it('creates audit webhooks with its keyring, reaching private hosts only when allowlisted', async () => {
    expect(started().output()).toMatch(/^keyring: generated for this process$/m);
    const hooks = '/api/v2/organizations/acme/audit-webhooks';
    const created = await send('POST', hooks, { name: 'local', url: 'https://localhost:9443/hook' });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { signing_secret: string }).signing_secret).toMatch(/^whsec_/);
    const refused = await send('POST', hooks, { name: 'other', url: 'https://127.0.0.1:9443/hook' });
    expect(refused.status).toBe(400);
    // The delivery metrics, for Prometheus.
    const metrics = await fetch(`${started().url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(text).toContain('# TYPE latchkey_audit_webhook_attempts gauge');
    expect(text).toMatch(
      /^latchkey_audit_webhook_status\{organization="acme",webhook="awh_\w+",status="active"\} 1$/m,
    );
  });

  it('accepts a signed push from an enrolled device and serves it back', async () => {
    expect((await send('POST', '/api/v2/organizations/acme/projects', { slug: 'web' })).status).toBe(201);
    const envs = '/api/v2/organizations/acme/projects/web/environments';
    expect((await send('POST', envs, { slug: 'prod' })).status).toBe(201);
    const keys = generateDeviceKeyPair();
    const enrolled = await send('POST', '/api/v2/organizations/acme/devices', {
      name: 'laptop',
      public_key: keys.publicKey,
    });
    expect(enrolled.status).toBe(201);
    const { id } = (await enrolled.json()) as { id: string };
    const address = { organization: 'acme', project: 'web', environment: 'prod' };
    const body = signPush(
      { device_id: id, changes: [{ key: 'API_KEY', value: 's3cret', if_version: 0 }] },
      address,
      keys.privateKey,
    );
    const pushed = await send('POST', `${envs}/prod/push`, body);
    expect(pushed.status).toBe(200);
    expect(await pushed.json()).toMatchObject({ versions: [{ key: 'API_KEY', version: 1 }] });
    const replayed = await send('POST', `${envs}/prod/push`, body);
    expect(replayed.status).toBe(409);
    const pulled = await send('GET', `${envs}/prod/secrets`);
    expect(await pulled.json()).toMatchObject({
      secrets: [{ key: 'API_KEY', value: 's3cret', version: 1 }],
    });
  });
}
