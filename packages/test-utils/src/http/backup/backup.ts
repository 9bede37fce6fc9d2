/**
 * Item: GET …/backup streams everything needed to rebuild the organization, in clear for the client
 * to encrypt: live secrets with values and versions, members, devices, webhooks with their signing
 * secrets, and the activity log with an intact chain under a signed checkpoint of its head;
 * recorded as backup_created afterwards.
 */
import { type ActivityEvent, type Checkpoint, verifyChain, verifyCheckpoint } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';

interface Line {
  kind?: string;
  [field: string]: unknown;
}

/** Registers the backup tests. */
export function describeBackupTests(ctx: ConformanceContext): void {
  describe('backup content', () => {
    it('holds the live secrets, members, devices, webhooks with secrets and the whole chain', async () => {
      expect(
        (await ctx.push(ctx.admin, { changes: [{ key: 'BACKED_UP', value: 'value "one"\n' }] })).status,
      ).toBe(200);
      const hook = await ctx.send(
        'POST',
        '/api/v2/organizations/acme/audit-webhooks',
        { name: 'backup', url: `https://${PUBLIC_HOST}/backup` },
        ADMIN,
      );
      const signingSecret = (hook.json as { signing_secret?: string }).signing_secret;
      const response = await ctx.send('GET', '/api/v2/organizations/acme/backup', undefined, ADMIN);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const lines = response.text.trimEnd().split('\n');
      const marker = lines.findIndex((l) => (JSON.parse(l) as Line).kind === 'events');
      const records = lines.slice(0, marker).map((l) => JSON.parse(l) as Line);
      const events = lines.slice(marker + 1).map((l) => JSON.parse(l) as ActivityEvent);
      expect(records[0]).toMatchObject({
        kind: 'latchkey_backup',
        format_version: 4,
        organization: { slug: 'acme' },
      });
      // The signed checkpoint of the head the backup covers, as GET …/activity/checkpoint gives it.
      const header = records[0] as unknown as {
        chain: { seq: number; hash: string };
        checkpoint: Checkpoint;
      };
      // It signs the tree head at the chain head too, which a restore checks the rebuilt tree against.
      expect(header.checkpoint).toMatchObject({
        organization: 'acme',
        ...header.chain,
        tree_size: header.chain.seq,
        root_hash: expect.any(String),
      });
      expect(verifyCheckpoint(header.checkpoint, ctx.auditPublicKey)).toBe(true);
      const pulled = (await ctx.send('GET', `${ENV_PATH}/secrets`, undefined, ADMIN)).json as {
        secrets: { key: string; value: string; version: number }[];
      };
      const secrets = records.filter(
        (r) => r.kind === 'secret' && r['environment'] === 'prod' && r['project'] === 'web',
      );
      expect(secrets.map((s) => [s['key'], s['value'], s['version']]).sort()).toEqual(
        pulled.secrets.map((s) => [s.key, s.value, s.version]).sort(),
      );
      expect(secrets.find((s) => s['key'] === 'BACKED_UP')?.['value']).toBe('value "one"\n');
      const members = (await ctx.send('GET', '/api/v2/organizations/acme/members', undefined, ADMIN))
        .json as {
        members: unknown[];
      };
      expect(records.filter((r) => r.kind === 'member')).toHaveLength(members.members.length);
      expect(records.filter((r) => r.kind === 'device').length).toBeGreaterThan(0);
      if (signingSecret) {
        expect(
          records.find((r) => r.kind === 'audit_webhook' && r['name'] === 'backup')?.['signing_secret'],
        ).toBe(signingSecret);
      }
      // The whole chain, from its genesis, as the export writes it.
      expect(events[0]!.seq).toBe(1);
      expect(verifyChain(events)).toBe(-1);
      expect(events.at(-1)!.seq).toBe((JSON.parse(lines[marker]!) as { through_seq: number }).through_seq);
      // Recorded after the stream, with what it held; never with a value.
      const history = (
        await ctx.send('GET', '/api/v2/organizations/acme/history?type=backup_created', undefined, ADMIN)
      ).json as { events: { data: { counts: Record<string, number> } }[] };
      expect(history.events[0]!.data.counts).toMatchObject({
        secret: expect.any(Number),
        event: events.length,
      });
      expect(JSON.stringify(history.events)).not.toContain('value \\"one\\"');
    });

    it('is for owners and admins only', async () => {
      expectError(
        await ctx.send('GET', '/api/v2/organizations/acme/backup', undefined, ctx.developer.token),
        403,
        'forbidden',
      );
      expectError(
        await ctx.send('GET', '/api/v2/organizations/acme/backup', undefined, ctx.viewerToken),
        403,
        'forbidden',
      );
    });
  });
}
