/**
 * Item: a webhook's custom headers and client certificate travel in backups as its signing secret
 * does: in clear inside the backup (which the CLI encrypts), sealed again at restore under this
 * server's keyring and the webhook's new id; a backup whose certificate and key do not match is
 * refused before anything is written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { makeMtlsCertificates } from '../../certificates/mtls-certificates.js';
import { describe, it } from '../../keyed/keyed.js';
import { type Line, linesOf, restoreHelpers } from '../backup/restore-helpers.js';
import type { ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

/** Registers the backup tests of receiver credentials. */
export function describeReceiverCredentialBackupTests(ctx: ConformanceContext): void {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);

  describe('receiver credentials in backups', () => {
    it('credentials: headers and the client certificate travel in backups and are sealed again at restore', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-backup-mtls-'));
      try {
        const { client, stranger } = makeMtlsCertificates(dir, PUBLIC_HOST);
        const suffix = Math.random().toString(36).slice(2, 8);
        const source = `creds-src-${suffix}`;
        const token = await newOrganization(source);
        const created = await ctx.send(
          'POST',
          `/api/v2/organizations/${source}/audit-webhooks`,
          {
            name: 'siem',
            url: `https://${PUBLIC_HOST}/siem`,
            headers: { 'X-Api-Key': 'backed-up-key-value', 'X-Tenant': 'blue' },
            client_certificate: { certificate: client.cert, private_key: client.key },
          },
          token,
        );
        expect(created.status, created.text).toBe(201);
        const fingerprint = (created.json as { client_certificate: { fingerprint_sha256: string } })
          .client_certificate.fingerprint_sha256;

        const webhookLine = (lines: Line[]) => lines.find((l) => l.kind === 'audit_webhook')!;
        const lines = linesOf(await backupOf(source, token));
        expect(webhookLine(lines)).toMatchObject({
          headers: { 'X-Api-Key': 'backed-up-key-value', 'X-Tenant': 'blue' },
          client_certificate: { certificate: expect.stringContaining('BEGIN CERTIFICATE') },
        });
        const { private_key: backedUpKey } = webhookLine(lines)['client_certificate'] as {
          private_key: string;
        };
        expect(backedUpKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);

        const target = `creds-dst-${suffix}`;
        const targetToken = await newOrganization(target);
        const restored = await restoreLines(target, targetToken, lines);
        expect(restored.status, restored.text).toBe(200);
        const listed = await ctx.send(
          'GET',
          `/api/v2/organizations/${target}/audit-webhooks`,
          undefined,
          targetToken,
        );
        expect((listed.json as { audit_webhooks: unknown[] }).audit_webhooks).toEqual([
          expect.objectContaining({
            headers: { 'X-Api-Key': '••••', 'X-Tenant': '••••' },
            client_certificate: expect.objectContaining({ fingerprint_sha256: fingerprint }),
          }),
        ]);
        // Its own backup opens what restore sealed: the same values come back out.
        const again = webhookLine(linesOf(await backupOf(target, targetToken)));
        expect(again['headers']).toEqual(webhookLine(lines)['headers']);
        expect(again['client_certificate']).toEqual(webhookLine(lines)['client_certificate']);

        // A certificate with another's key is refused, and nothing is written.
        const mismatched = lines.map((l) =>
          l.kind === 'audit_webhook'
            ? { ...l, client_certificate: { certificate: client.cert, private_key: stranger.key } }
            : l,
        );
        const other = `creds-bad-${suffix}`;
        const otherToken = await newOrganization(other);
        refused(await restoreLines(other, otherToken, mismatched), /client certificate is refused/);
        const none = await ctx.send(
          'GET',
          `/api/v2/organizations/${other}/audit-webhooks`,
          undefined,
          otherToken,
        );
        expect(none.json).toEqual({ audit_webhooks: [] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
