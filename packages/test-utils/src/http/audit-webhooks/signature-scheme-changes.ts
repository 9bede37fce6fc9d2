/**
 * Item: a webhook's scheme through the API. `signature_scheme` defaults to `latchkey` and shows in
 * the webhook JSON; a PATCH into an HMAC scheme issues a secret of that scheme's form, in that
 * answer only, and is recorded with what changed; the ed25519 scheme has no secret to rotate;
 * unknown schemes are refused; secrets never appear in lists, events or key listings.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { linesOf, restoreHelpers } from '../backup/restore-helpers.js';
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { WEAK_DEVICE_ID } from '../pushes/device-keys.js';
import { createWebhook, HOOKS } from './audit-webhooks.js';

export function describeSignatureSchemeChangeTests(ctx: ConformanceContext): void {
  describe('signature scheme changes', () => {
    it('defaults to latchkey; PATCH into standard-webhooks issues a whsec_ standard base64 secret once', async () => {
      const created = await createWebhook(ctx, 'scheme change');
      expect(created['signature_scheme']).toBe('latchkey');
      expect(created.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const patched = await ctx.send('PATCH', `${HOOKS}/${created.id}`, {
        signature_scheme: 'standard-webhooks',
      });
      expect(patched.status, patched.text).toBe(200);
      const body = patched.json as { signature_scheme: string; signing_secret: string };
      expect(body.signature_scheme).toBe('standard-webhooks');
      expect(body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await ctx.send('GET', `${HOOKS}/${created.id}`);
      expect(read.json).toMatchObject({ signature_scheme: 'standard-webhooks' });
      expect(read.text).not.toContain(body.signing_secret);
      // Renaming alone issues nothing.
      const renamed = await ctx.send('PATCH', `${HOOKS}/${created.id}`, { name: 'renamed' });
      expect(renamed.json).not.toHaveProperty('signing_secret');
      const events = await ctx.send('GET', '/api/v2/organizations/acme/history?limit=10');
      expect(events.text).not.toContain(body.signing_secret);
      const updated = (
        events.json as { events: { type: string; data: Record<string, unknown> }[] }
      ).events.find(
        (e) =>
          e.type === 'audit_webhook_updated' && (e.data['changed'] as string[]).includes('signature_scheme'),
      );
      expect(updated?.data).toMatchObject({ from: { signature_scheme: 'latchkey' } });
    });

    it('an ed25519 webhook has no secret: create shows public keys, rotate-secret is refused', async () => {
      const created = await ctx.send('POST', HOOKS, {
        name: 'keyed',
        url: 'https://hooks.example.com/keyed',
        signature_scheme: 'standard-webhooks-ed25519',
      });
      expect(created.status, created.text).toBe(201);
      const body = created.json as { id: string; signing_secret?: string; public_keys: string[] };
      expect(body.signing_secret).toBeUndefined();
      expect(body.public_keys[0]).toMatch(/^whpk_/);
      expectError(await ctx.send('POST', `${HOOKS}/${body.id}/rotate-secret`), 400, 'invalid_request');
      const keys = await ctx.send('GET', `${HOOKS}/signing-keys`, undefined, ctx.viewerToken);
      expect(keys.status).toBe(200);
      expect(keys.text).not.toMatch(/PRIVATE|private_key/);
    });

    it('a backup carries each scheme and the signing keys; restored, the same public key signs', async () => {
      const { backupOf, newOrganization, restoreLines } = restoreHelpers(ctx);
      const before = await ctx.send('GET', `${HOOKS}/signing-keys`);
      const published = (before.json as { signing_keys: { public_key: string }[] }).signing_keys;
      expect(published.length).toBeGreaterThan(0);
      // Without the weak device the device key tests planted in acme, which any restore refuses.
      const lines = linesOf(await backupOf('acme', ADMIN)).filter(
        (l) => !(l.kind === 'device' && l['id'] === WEAK_DEVICE_ID),
      );
      const header = lines[0] as { webhook_signing_keys?: { public_key: string }[] };
      expect(header.webhook_signing_keys?.map((k) => k.public_key)).toEqual(
        expect.arrayContaining(published.map((k) => k.public_key)),
      );
      const schemes = lines.filter((l) => l.kind === 'audit_webhook').map((l) => l['signature_scheme']);
      expect(schemes).toEqual(expect.arrayContaining(['standard-webhooks', 'standard-webhooks-ed25519']));
      const slug = `schemes-${Math.random().toString(36).slice(2, 8)}`;
      const token = await newOrganization(slug);
      const restored = await restoreLines(slug, token, lines);
      expect(restored.status, restored.text).toBe(200);
      const base = `/api/v2/organizations/${slug}/audit-webhooks`;
      const keys = await ctx.send('GET', `${base}/signing-keys`, undefined, token);
      expect(
        (keys.json as { signing_keys: { public_key: string }[] }).signing_keys.map((k) => k.public_key),
      ).toEqual(published.map((k) => k.public_key));
      const hooks = await ctx.send('GET', base, undefined, token);
      const restoredSchemes = (
        hooks.json as { audit_webhooks: { signature_scheme: string }[] }
      ).audit_webhooks.map((w) => w.signature_scheme);
      expect(restoredSchemes.sort()).toEqual([...schemes].sort());
    });

    it('refuses an unknown scheme on create and on PATCH', async () => {
      expectError(
        await ctx.send('POST', HOOKS, {
          name: 'x',
          url: 'https://hooks.example.com/x',
          signature_scheme: 'hmac',
        }),
        400,
        'invalid_request',
      );
      const created = await createWebhook(ctx, 'unknown scheme');
      expectError(
        await ctx.send('PATCH', `${HOOKS}/${created.id}`, { signature_scheme: 'v1a' }),
        400,
        'invalid_request',
      );
    });
  });
}
