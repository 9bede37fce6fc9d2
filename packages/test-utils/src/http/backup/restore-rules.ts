/**
 * Item: a restore holds what it writes to the rules the API enforces at create, and accepts a
 * history only under a trusted signature. Ids outside the API's formats, webhook URLs and workload
 * identities' issuers the SSRF check refuses, names with control characters, event times that are
 * not RFC 3339, duplicate event ids and secret values a push would refuse are a 422 `backup_invalid` naming the line, on every store; the restorer stays an owner
 * whatever the backup says; events claiming another organization, a checkpoint signed by a key the
 * server does not trust, or none, are refused; a genuine backup of another server whose key is
 * trusted restores under a `backup_restored` naming where it came from.
 */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { identityBody } from '../workload/workload-helpers.js';
import { type Line, linesOf, rechain } from './restore-helpers.js';
import { historyRuleTests, trustedSourceTests } from './restore-rule-histories.js';
import { type RestoreRuleKit, restoreRuleKit } from './restore-rule-kit.js';

/** Registers the tests of the rules restored records and histories must pass. */
export function describeRestoreRuleTests(ctx: ConformanceContext): void {
  const kit = restoreRuleKit(ctx);
  describe('restore rules', () => {
    recordRuleTests(kit);
    valueRuleTests(kit);
    historyRuleTests(kit);
    trustedSourceTests(kit);
  });
}

/** Restored records hold to the create schemas: ids, webhook URLs, names and event fields. */
function recordRuleTests(kit: RestoreRuleKit): void {
  const { ctx, backupOf, newOrganization, restoreLines, refused, as, setUp, edited, firstEvent } = kit;
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

  it('refuses workload identities whose issuer the create-time SSRF check refuses', async () => {
    const sourceToken = await newOrganization('rules-issuer-src');
    const created = await as(sourceToken)(
      'POST',
      'rules-issuer-src/workload-identities',
      identityBody(ctx, 'ci'),
    );
    expect(created.status, created.text).toBe(201);
    const source = linesOf(await backupOf('rules-issuer-src', sourceToken));
    const target = 'rules-issuers';
    const token = await newOrganization(target);
    for (const issuer of ['https://internal.example.com', 'https://10.0.0.1', 'https://127.0.0.1:8443']) {
      const { lines, line } = edited(source, 'workload_identity', (l) => ({ ...l, issuer }));
      refused(
        await restoreLines(target, token, lines),
        new RegExp(
          `^The backup is not valid: line ${line}: the workload identity's issuer cannot be trusted`,
        ),
        issuer,
      );
    }
    expect((await as(token)('GET', `${target}/workload-identities`)).json).toEqual({
      workload_identities: [],
    });
    // The backup as made, its issuer trusted here, restores.
    expect((await restoreLines(target, token, source)).status).toBe(200);
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

/** Restored secret values hold to what a push takes. */
function valueRuleTests(kit: RestoreRuleKit): void {
  const { backupOf, newOrganization, restoreLines, refused, as } = kit;
  it('refuses secret values a push would refuse (NUL, a lone surrogate), naming the line', async () => {
    const source = 'rules-values';
    const sourceToken = await newOrganization(source);
    const owner = as(sourceToken);
    expect((await owner('POST', `${source}/projects`, { slug: 'web' })).status).toBe(201);
    expect((await owner('POST', `${source}/projects/web/environments`, { slug: 'prod' })).status).toBe(201);
    const keys = generateDeviceKeyPair();
    const device = await owner('POST', `${source}/devices`, { name: 'laptop', public_key: keys.publicKey });
    const address = { organization: source, project: 'web', environment: 'prod' };
    const push = (value: string) =>
      owner(
        'POST',
        `${source}/projects/web/environments/prod/push`,
        signPush(
          { device_id: (device.json as { id: string }).id, changes: [{ key: 'K', value }] },
          address,
          keys.privateKey,
        ),
      );
    // The values a push refuses: restore holds a backup's values to the same rule.
    expectError(await push('one\u0000two'), 400, 'invalid_request');
    expectError(await push('one\ud800two'), 400, 'invalid_request');
    expect((await push('one')).status).toBe(200);
    expect((await push('two')).status).toBe(200);
    const lines = linesOf(await backupOf(source, sourceToken));
    const target = 'rules-values-into';
    const token = await newOrganization(target);
    const at = (kind: string, version: number) =>
      lines.findIndex((l) => l.kind === kind && l['version'] === version);
    // The head's value is in its secret line and its newest version's; an older version holds its own.
    const edits: [string, number[]][] = [
      ['the head', [at('secret', 2), at('secret_version', 2)]],
      ['an older version', [at('secret_version', 1)]],
    ];
    for (const [where, indexes] of edits) {
      for (const [what, value, fault] of [
        ['NUL', 'one\u0000two', /NUL/],
        ['a lone surrogate', 'one\ud800two', /surrogate/],
      ] as const) {
        const bad = lines.map((l, i) => (indexes.includes(i) ? { ...l, value } : l));
        const line = Math.min(...indexes) + 1;
        const answer = await restoreLines(target, token, bad);
        refused(answer, new RegExp(`^The backup is not valid: line ${line}: .*value`), `${what} in ${where}`);
        expect(answer.text, `${what} in ${where}`).toMatch(fault);
      }
    }
    // The backup as made restores: the refusals were the values.
    expect((await restoreLines(target, token, lines)).status).toBe(200);
  });
}
