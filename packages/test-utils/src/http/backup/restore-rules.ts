/**
 * Item: a restore holds what it writes to the rules the API enforces at create, and accepts a
 * history only under a trusted signature. Ids outside the API's formats, webhook URLs the SSRF
 * check refuses, names with control characters, event times that are not RFC 3339 and duplicate
 * event ids are a 422 `backup_invalid` naming the line, on every store; the restorer stays an owner
 * whatever the backup says; events claiming another organization, a checkpoint signed by a key the
 * server does not trust, or none, are refused; a genuine backup of another server whose key is
 * trusted restores under a `backup_restored` naming where it came from.
 */
import { createCore, generateAuditKey, generateDeviceKeyPair, generateKeyringKey } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { conformanceResolver, conformanceTransport, PUBLIC_HOST } from '../harness/fake-network.js';
import { inProcessTarget } from '../harness/http-target.js';
import { type Line, linesOf, rechain, restoreHelpers } from './restore-helpers.js';

const OTHER_TOKEN = 'lk_conformance_other_server_token_000000000000';

/** Registers the tests of the rules restored records and histories must pass. */
export function describeRestoreRuleTests(ctx: ConformanceContext): void {
  const kit = restoreRuleKit(ctx);
  describe('restore rules', () => {
    recordRuleTests(kit);
    historyRuleTests(kit);
    trustedSourceTests(kit);
  });
}

type RestoreRuleKit = ReturnType<typeof restoreRuleKit>;

/** What the rule tests share: the restore helpers, a sender per token and one source backup, made once. */
function restoreRuleKit(ctx: ConformanceContext) {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);
  /** Sends with `token` to a path under `/api/v2/organizations/`. */
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    ctx.send(method, `/api/v2/organizations/${path}`, body, token);

  /** The backup of an organization with a record of every kind. */
  let fixture: Promise<{ source: Line[] }> | undefined;
  const setUp = () => {
    fixture ??= (async () => {
      const sourceToken = await newOrganization('rules-src');
      const owner = as(sourceToken);
      expect((await owner('POST', 'rules-src/projects', { slug: 'web', name: 'Web' })).status).toBe(201);
      expect((await owner('POST', 'rules-src/projects/web/environments', { slug: 'prod' })).status).toBe(201);
      const device = { name: 'laptop', public_key: generateDeviceKeyPair().publicKey };
      expect((await owner('POST', 'rules-src/devices', device)).status).toBe(201);
      const hook = { name: 'siem', url: `https://${PUBLIC_HOST}/rules` };
      expect((await owner('POST', 'rules-src/audit-webhooks', hook)).status).toBe(201);
      expect((await owner('POST', 'rules-src/members', { user: 'auditor', role: 'viewer' })).status).toBe(
        201,
      );
      const source = linesOf(await backupOf('rules-src', sourceToken));
      return { source };
    })();
    return fixture;
  };
  /** The source's lines with line `kind` (the first of it) changed by `edit`; its index too. */
  const edited = (source: readonly Line[], kind: string, edit: (line: Line) => Line) => {
    const lines = source.map((l) => ({ ...l }));
    const index = lines.findIndex((l) => l.kind === kind);
    lines[index] = edit(lines[index]!);
    return { lines, line: index + 1 };
  };
  const firstEvent = (lines: readonly Line[]) => lines.findIndex((l) => l.kind === 'events') + 1;
  return { ctx, backupOf, newOrganization, restoreLines, refused, as, setUp, edited, firstEvent };
}

/** Restored records hold to the create schemas: ids, webhook URLs, names and event fields. */
function recordRuleTests(kit: RestoreRuleKit): void {
  const { ctx, newOrganization, restoreLines, refused, as, setUp, edited, firstEvent } = kit;
  it('refuses ids outside the formats the API takes, naming the line', async () => {
    const { source } = await setUp();
    const target = 'rules-ids';
    const token = await newOrganization(target);
    const cases: [string, string][] = [
      ['audit_webhook', 'exfil'],
      ['device', 'planted'],
      ['project', 'p1'],
      ['environment', 'e1'],
    ];
    for (const [kind, id] of cases) {
      const { lines, line } = edited(source, kind, (l) => ({ ...l, id }));
      refused(
        await restoreLines(target, token, lines),
        new RegExp(`^The backup is not valid: line ${line}: .*\\(id\\)`),
        kind,
      );
    }
    expect((await as(token)('GET', `${target}/audit-webhooks`)).json).toEqual({ audit_webhooks: [] });
  });

  it('refuses webhook URLs the create-time SSRF check refuses', async () => {
    const { source } = await setUp();
    const target = 'rules-urls';
    const token = await newOrganization(target);
    for (const url of ['https://127.0.0.1/', 'https://10.0.0.7/hook', 'https://169.254.169.254/latest']) {
      const { lines, line } = edited(source, 'audit_webhook', (l) => ({ ...l, url }));
      refused(
        await restoreLines(target, token, lines),
        new RegExp(`^The backup is not valid: line ${line}: .*url`),
        url,
      );
    }
  });

  it('refuses names with control characters or NUL', async () => {
    const { source } = await setUp();
    const target = 'rules-names';
    const token = await newOrganization(target);
    const cases: [string, string][] = [
      ['project', 'web\u0000app'],
      ['device', 'laptop\u001b]0;owned\u0007'],
      ['audit_webhook', 'siem\r\nfake row'],
    ];
    // The same names are refused at create: restore holds a backup to the create schemas.
    const device = { name: cases[1]![1], public_key: generateDeviceKeyPair().publicKey };
    expectError(
      await as(token)('POST', `${target}/projects`, { slug: 'x', name: cases[0]![1] }),
      400,
      'invalid_request',
    );
    expectError(await as(token)('POST', `${target}/devices`, device), 400, 'invalid_request');
    for (const [kind, name] of cases) {
      const { lines, line } = edited(source, kind, (l) => ({ ...l, name }));
      refused(
        await restoreLines(target, token, lines),
        new RegExp(`^The backup is not valid: line ${line}: .*name`),
        kind,
      );
    }
  });

  it('refuses event times that are not RFC 3339, duplicate event ids and NUL in events, on every store', async () => {
    const { source } = await setUp();
    const target = 'rules-times';
    const token = await newOrganization(target);
    const key = ctx.trustedAuditKey.privateKeyPem;
    const first = firstEvent(source);
    // Index 1 of the events is the second event, on line `first + 2`.
    const cases: [string, (events: Line[]) => void, number][] = [
      ['not-a-date', (e) => Object.assign(e[1]!, { occurred_at: 'not-a-date' }), first + 2],
      ['yesterday', (e) => Object.assign(e[1]!, { occurred_at: 'yesterday' }), first + 2],
      ['a duplicate id', (e) => Object.assign(e[2]!, { id: e[1]!['id'] }), first + 3],
      ['NUL in a type', (e) => Object.assign(e[1]!, { type: 'project\u0000created' }), first + 2],
    ];
    for (const [what, edit, line] of cases) {
      const lines = source.map((l) => ({ ...l }));
      edit(lines.slice(first));
      refused(
        await restoreLines(target, token, rechain(lines, key)),
        new RegExp(`^The backup is not valid: line ${line}: `),
        what,
      );
    }
    // The same history, untouched but signed by that key, is accepted: the refusals were the rules.
    const fine = await newOrganization('rules-fine');
    expect((await restoreLines('rules-fine', fine, rechain(source, key))).status).toBe(200);
  });
}

/** The restorer stays an owner, and a forged history is refused. */
function historyRuleTests(kit: RestoreRuleKit): void {
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
function trustedSourceTests(kit: RestoreRuleKit): void {
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
