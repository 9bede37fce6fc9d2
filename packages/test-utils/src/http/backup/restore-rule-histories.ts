/**
 * The restore rules of histories (see `restore-rules.ts`): the restorer stays an owner whatever the
 * backup says; a forged history is refused; a genuine backup of another server whose key is trusted
 * restores, naming where it came from.
 */
import { createCore, generateAuditKey, generateDeviceKeyPair, generateKeyringKey } from '@latchkey/core';
import { expect } from 'vitest';
import { it } from '../../keyed/keyed.js';
import { expectError } from '../harness/expect-error.js';
import { conformanceResolver, conformanceTransport, PUBLIC_HOST } from '../harness/fake-network.js';
import { inProcessTarget } from '../harness/http-target.js';
import { type Line, linesOf, rechain } from './restore-helpers.js';
import type { RestoreRuleKit } from './restore-rule-kit.js';

const OTHER_TOKEN = 'lk_conformance_other_server_token_000000000000';

/** The restorer stays an owner, and a forged history is refused. */
export function historyRuleTests(kit: RestoreRuleKit): void {
  const { ctx, newOrganization, restoreLines, refused, as, setUp, firstEvent } = kit;
  it('keeps the restorer an owner whatever the backup says, so last_owner holds', async () => {
    const { source } = await setUp();
    const viewer = source.map((l) =>
      l.kind === 'member' && l['user'] === 'admin' ? { ...l, role: 'viewer', grants: [] } : l,
    );
    const absent = source.filter((l) => !(l.kind === 'member' && l['user'] === 'admin'));
    for (const [slug, lines] of [
      ['rules-viewer', viewer],
      ['rules-absent', absent],
    ] as const) {
      const token = await newOrganization(slug);
      const answer = await restoreLines(slug, token, lines);
      expect({ slug, status: answer.status }).toEqual({ slug, status: 200 });
      const members = (await as(token)('GET', `${slug}/members`)).json as {
        members: { user: string; role: string }[];
      };
      expect(members.members.filter((m) => m.role === 'owner').map((m) => m.user)).toEqual(['admin']);
      expectError(await as(token)('PATCH', `${slug}/members/admin`, { role: 'viewer' }), 409, 'last_owner');
      const recorded = (await as(token)('GET', `${slug}/history?type=backup_restored`)).json as {
        events: { data: Record<string, unknown> }[];
      };
      expect(recorded.events[0]!.data).toMatchObject({
        restorer_added: slug === 'rules-absent',
        restorer: {
          user: 'admin',
          role_in_backup: slug === 'rules-absent' ? null : 'viewer',
          role: 'owner',
        },
      });
      // Still an owner in deed: backups are for owners and admins.
      expect((await as(token)('GET', `${slug}/backup`)).status).toBe(200);
    }
  });

  it('refuses a forged history: another organization’s events, an untrusted or missing checkpoint', async () => {
    const { source } = await setUp();
    const token = await newOrganization('rules-evil');
    const first = firstEvent(source);
    const trusted = ctx.trustedAuditKey.privateKeyPem;
    const claimingAcme = source.map((l, i) => (i >= first ? { ...l, organization: 'acme' } : l));
    const unsigned = rechain(source, null);
    const tampered = rechain(source, trusted);
    const checkpoint = tampered[0]!['checkpoint'] as { signature: string };
    tampered[0] = {
      ...tampered[0]!,
      checkpoint: {
        ...checkpoint,
        signature: `${checkpoint.signature.startsWith('A') ? 'B' : 'A'}${checkpoint.signature.slice(1)}`,
      },
    };
    const cases: [string, Line[], RegExp][] = [
      [
        'events of acme under a trusted checkpoint',
        rechain(claimingAcme, trusted),
        /line \d+: .*organization acme/,
      ],
      [
        'events of acme under the original checkpoint',
        rechain(claimingAcme, trusted).map((l, i) =>
          i === 0 ? { ...l, checkpoint: source[0]!['checkpoint'] } : l,
        ),
        /line 1: .*checkpoint/,
      ],
      ['a checkpoint naming acme', rechain(source, trusted, 'acme'), /line 1: .*checkpoint/],
      [
        'a checkpoint of an untrusted key',
        rechain(source, generateAuditKey().privateKeyPem),
        /line 1: .*not trust/,
      ],
      ['a checkpoint whose signature was changed', tampered, /line 1: .*signature/],
      ['no checkpoint', unsigned, /line 1: .*no signed checkpoint/],
      [
        'an older format without checkpoint',
        unsigned.map((l, i) => (i === 0 ? { ...l, format_version: 1 } : l)),
        /line 1: .*no signed checkpoint/,
      ],
    ];
    for (const [what, lines, message] of cases) {
      refused(await restoreLines('rules-evil', token, lines), message, what);
    }
    const history = (await as(token)('GET', 'rules-evil/history?limit=500')).json as {
      events: { organization: string }[];
    };
    expect(history.events.every((e) => e.organization === 'rules-evil')).toBe(true);
  });
}

/** A genuine backup of another server whose key is trusted restores, naming where it came from. */
export function trustedSourceTests(kit: RestoreRuleKit): void {
  const { ctx, backupOf, newOrganization, restoreLines, as } = kit;
  it('restores a genuine backup of another server whose key it trusts, naming source, checkpoint and key id', async () => {
    const other = createCore({
      auditKey: ctx.trustedAuditKey.privateKeyPem,
      keyring: { current: 'k1', keys: { k1: generateKeyringKey() } },
      webhooks: { resolve: conformanceResolver, transport: conformanceTransport() },
    });
    await other.bootstrap({ organization: 'elsewhere', user: 'admin', token: OTHER_TOKEN });
    const target = await inProcessTarget(other);
    const there = async (method: string, path: string, body?: unknown) => {
      const response = await target.send({
        method,
        path: `/api/v2/organizations/elsewhere${path}`,
        headers: { authorization: `Bearer ${OTHER_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect({ path, status: response.status }).toEqual({ path, status: method === 'POST' ? 201 : 200 });
      return response;
    };
    await there('POST', '/projects', { slug: 'web' });
    const device = (
      await there('POST', '/devices', { name: 'laptop', public_key: generateDeviceKeyPair().publicKey })
    ).json as { id: string };
    const hook = (
      await there('POST', '/audit-webhooks', { name: 'siem', url: `https://${PUBLIC_HOST}/elsewhere` })
    ).json as { id: string };
    const content = (await there('GET', '/backup')).text;
    const keyId = ((await there('GET', '/activity/checkpoint')).json as { key_id: string }).key_id;
    await other.store.close?.();

    const token = await newOrganization('rules-trusted');
    const lines = linesOf(content);
    const answer = await restoreLines('rules-trusted', token, lines);
    expect(answer.status).toBe(200);
    const owner = as(token);
    const restored = (await owner('GET', 'rules-trusted/history?type=backup_restored')).json as {
      events: { data: Record<string, unknown> }[];
    };
    const header = lines[0] as { chain: { seq: number; hash: string } };
    expect(restored.events[0]!.data).toMatchObject({
      source: {
        organization: 'elsewhere',
        key_id: keyId,
        checkpoint: {
          organization: 'elsewhere',
          ...header.chain,
          key_id: keyId,
          signature: expect.any(String),
        },
      },
    });
    // The ids were kept, and every restored record is managed through the API.
    expect((await owner('GET', `rules-trusted/audit-webhooks/${hook.id}`)).status).toBe(200);
    expect((await owner('POST', `rules-trusted/audit-webhooks/${hook.id}/rotate-secret`)).status).toBe(200);
    expect((await owner('POST', `rules-trusted/audit-webhooks/${hook.id}/disable`)).status).toBe(200);
    expect((await owner('POST', `rules-trusted/devices/${device.id}/revoke`)).status).toBe(200);

    // A history that holds a restore can itself be backed up and restored again.
    const again = await newOrganization('rules-again');
    const second = linesOf(await backupOf('rules-trusted', token));
    expect((await restoreLines('rules-again', again, second)).status).toBe(200);
  });
}
