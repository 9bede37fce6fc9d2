/**
 * Item: a backup restores through the staged API (begin with the manifest, send parts, commit) into
 * a fresh organization of the same server, reproducing secrets with their versions, members,
 * devices, webhooks with their signing secrets and the activity chain verbatim; tampered or cut
 * content, a non-empty organization without force, or a caller who is not an owner of the target
 * is refused with nothing written.
 */
import { type ActivityEvent, verifyChain } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import { type Line, linesOf, manifestOf, restoreHelpers, split } from './restore-helpers.js';

export { manifestOf } from './restore-helpers.js';

/** Registers the restore tests. */
export function describeRestoreTests(ctx: ConformanceContext): void {
  const kit = restoreKit(ctx);
  describe('restore', () => {
    copyTests(kit);
    formatAndGuardTests(kit);
  });
}

type RestoreKit = ReturnType<typeof restoreKit>;

/** What the restore tests share: the restore helpers and the stored chain of an organization. */
function restoreKit(ctx: ConformanceContext) {
  const { restoreLines, backupOf, newOrganization, restore } = restoreHelpers(ctx);
  /** The organization's whole chain, oldest first, as stored (an export would add an event of its own). */
  const chainOf = async (slug: string, _token: string): Promise<ActivityEvent[]> => {
    const organization = (await ctx.core.store.organizations.getBySlug(slug))!;
    return ctx.core.store.activity.list({
      organizationId: organization.id,
      oldestFirst: true,
      limit: 100_000,
    });
  };
  return { ctx, restoreLines, backupOf, newOrganization, restore, chainOf };
}

/** A restore reproduces everything a backup holds in a fresh organization. */
function copyTests(kit: RestoreKit): void {
  const { ctx, backupOf, newOrganization, restore, chainOf } = kit;
  it('reproduces secrets, versions, members, devices, webhooks and the chain in a fresh organization', async () => {
    await ctx.push(ctx.admin, { changes: [{ key: 'RESTORED', value: 'line one\nline "two"' }] });
    await ctx.push(ctx.admin, { changes: [{ key: 'RESTORED_GONE', value: 'soon deleted' }] });
    await ctx.push(ctx.admin, { changes: [{ key: 'RESTORED_GONE', delete: true }] });
    await ctx.push(ctx.admin, { changes: [{ key: 'RESTORED_GONE', value: 'soon deleted' }] });
    await ctx.push(ctx.admin, { changes: [{ key: 'RESTORED_GONE', delete: true }] });
    await ctx.send(
      'POST',
      '/api/v2/organizations/acme/audit-webhooks',
      { name: 'restore', url: `https://${PUBLIC_HOST}/restore` },
      ADMIN,
    );
    const content = await backupOf('acme', ADMIN);
    const lines = content
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    const token = await newOrganization('restored-a');
    const answer = await restore('restored-a', token, manifestOf(content), split(content));
    expect(answer.status).toBe(200);
    const manifest = manifestOf(content);
    expect((answer.json as { restored: unknown }).restored).toEqual(manifest.counts);

    // The restored organization's own backup holds the same records, secrets and signing secrets included.
    const again = (await backupOf('restored-a', token)).trimEnd().split('\n');
    const comparable = (all: Line[]) =>
      all
        .filter((l) => l.kind !== 'latchkey_backup' && l.kind !== 'events' && 'kind' in l)
        .map(withDevicesByKey(all))
        .map(({ id: _id, ...rest }) => rest)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const marker = lines.findIndex((l) => l.kind === 'events');
    const againLines = again.map((l) => JSON.parse(l) as Line);
    const againMarker = againLines.findIndex((l) => l.kind === 'events');
    expect(comparable(againLines.slice(0, againMarker))).toEqual(comparable(lines.slice(0, marker)));
    expect(
      againLines.slice(0, againMarker).find((l) => l.kind === 'secret' && l['key'] === 'RESTORED'),
    ).toMatchObject({ value: 'line one\nline "two"', version: expect.any(Number) });
    // Each key's history comes back: RESTORED_GONE's four versions, tombstones without values.
    const goneVersions = (all: Line[]) =>
      all
        .filter(
          (l) => l.kind === 'secret_version' && l['key'] === 'RESTORED_GONE' && l['environment'] === 'prod',
        )
        .map((l) => [l['version'], l['deleted'], l['value']]);
    expect(goneVersions(againLines).slice(-4)).toEqual([
      [expect.any(Number), false, 'soon deleted'],
      [expect.any(Number), true, undefined],
      [expect.any(Number), false, 'soon deleted'],
      [expect.any(Number), true, undefined],
    ]);
    expect(goneVersions(againLines)).toEqual(goneVersions(lines));
    const restoredHistory = await ctx.send(
      'GET',
      '/api/v2/organizations/restored-a/projects/web/environments/prod/secrets/RESTORED/versions?include_values=true',
      undefined,
      token,
    );
    const originalHistory = await ctx.send('GET', `${ENV_PATH}/secrets/RESTORED/versions`, undefined, ADMIN);
    expect(
      (restoredHistory.json as { versions: { value?: string }[] }).versions.map(({ value: _v, ...m }) => m),
    ).toEqual((originalHistory.json as { versions: unknown[] }).versions);
    expect((restoredHistory.json as { versions: { value?: string }[] }).versions[0]!.value).toBe(
      'line one\nline "two"',
    );

    // The chain: the backup's events verbatim, then backup_restored on top, all verifying.
    const chain = await chainOf('restored-a', token);
    const original = lines.slice(marker + 1) as unknown as ActivityEvent[];
    expect(chain.slice(0, original.length)).toEqual(original);
    expect(verifyChain(chain)).toBe(-1);
    const last = chain[original.length]!;
    expect(last).toMatchObject({
      type: 'backup_restored',
      seq: original.length + 1,
      organization: 'restored-a',
      data: { counts: manifest.counts, source: { organization: 'acme' }, force: false },
    });
    expect(JSON.stringify(last)).not.toContain('line one');
    // Pushes go on from the restored versions.
    const pulled = (
      await ctx.send(
        'GET',
        '/api/v2/organizations/restored-a/projects/web/environments/prod/secrets',
        undefined,
        token,
      )
    ).json as { secrets: { key: string; version: number }[] };
    const source = lines.filter(
      (l) => l.kind === 'secret' && l['project'] === 'web' && l['environment'] === 'prod',
    );
    expect(pulled.secrets.map((s) => [s.key, s.version]).sort()).toEqual(
      source.map((s) => [s['key'], s['version']]).sort(),
    );
    // A deleted key keeps its tombstone version: a push naming it goes on from there.
    const gone = lines.find((l) => l.kind === 'deleted_secret' && l['key'] === 'RESTORED_GONE')!;
    expect(gone).toMatchObject({ project: 'web', environment: 'prod', version: expect.any(Number) });
    const tombstone = gone['version'] as number;
    const devices = (await ctx.send('GET', '/api/v2/organizations/restored-a/devices', undefined, token))
      .json as { devices: { id: string; public_key: string; user: string }[] };
    const device = devices.devices.find((d) => d.public_key === ctx.admin.keys.publicKey)!;
    const address = { organization: 'restored-a', project: 'web', environment: 'prod' };
    const pushed = await ctx.push(
      { ...ctx.admin, token, deviceId: device.id },
      { changes: [{ key: 'RESTORED_GONE', value: 'back again', if_version: tombstone }] },
      address,
      '/api/v2/organizations/restored-a/projects/web/environments/prod',
    );
    expect(pushed.status).toBe(200);
    expect(pushed.json).toMatchObject({ versions: [{ key: 'RESTORED_GONE', version: tombstone + 1 }] });
  });
}

/** Older formats restore; tampered content, a non-empty target and a non-owner are refused. */
function formatAndGuardTests(kit: RestoreKit): void {
  const { ctx, restoreLines, backupOf, newOrganization, restore, chainOf } = kit;
  it('restores a backup made before backups carried history with each head as its key’s one version', async () => {
    const lines = linesOf(await backupOf('acme', ADMIN))
      .filter((l) => l.kind !== 'secret_version')
      .map((l, i) => (i === 0 ? { ...l, format_version: 2 } : l));
    const token = await newOrganization('restored-v2');
    const answer = await restoreLines('restored-v2', token, lines);
    expect(answer.status).toBe(200);
    const head = lines.find(
      (l) => l.kind === 'secret' && l['key'] === 'RESTORED' && l['environment'] === 'prod',
    )!;
    const history = await ctx.send(
      'GET',
      '/api/v2/organizations/restored-v2/projects/web/environments/prod/secrets/RESTORED/versions?include_values=true',
      undefined,
      token,
    );
    expect(history.json).toEqual({
      versions: [
        {
          version: head['version'],
          deleted: false,
          occurred_at: head['updated_at'],
          actor: null,
          device_id: null,
          event_id: null,
          value: 'line one\nline "two"',
        },
      ],
      next_cursor: null,
    });
  });

  it('refuses tampered, cut or unordered content with nothing written', async () => {
    const content = await backupOf('acme', ADMIN);
    const token = await newOrganization('restored-b');
    const before = await chainOf('restored-b', token);
    const manifest = manifestOf(content);
    const flipped = content.replace('"kind":"project"', '"kind":"projecT"');
    const lines = content.split(/(?<=\n)/);
    const cases: [string, unknown, string[]][] = [
      ['a changed byte', manifest, split(flipped)],
      [
        'a changed byte, manifest recomputed',
        manifestOf(content.replace('"web"', '"wEb"')),
        split(content.replace('"web"', '"wEb"')),
      ],
      ['a cut file', manifest, split(lines.slice(0, -3).join(''))],
      ['a missing part', manifest, split(content).slice(1)],
      [
        'a broken chain',
        manifestOf(lines.slice(0, -2).join('') + lines.at(-1)),
        split(lines.slice(0, -2).join('') + lines.at(-1)),
      ],
    ];
    for (const [what, m, parts] of cases) {
      const answer = await restore('restored-b', token, m, parts);
      const body = expectError(answer, 422, 'backup_invalid');
      expect({ what, message: (body['error'] as { message: string }).message }).toMatchObject({
        message: expect.stringMatching(/^The backup is not valid: /),
      });
    }
    expect(await chainOf('restored-b', token)).toEqual(before);
    const projects = await ctx.send('GET', '/api/v2/organizations/restored-b/projects', undefined, token);
    expect(projects.json).toEqual({ projects: [] });
  });

  it('needs force for an organization that is not empty, and an owner of the target', async () => {
    const content = await backupOf('acme', ADMIN);
    const manifest = manifestOf(content);
    expectError(await restore('acme', ADMIN, manifest, split(content)), 409, 'organization_not_empty');
    const adminToken = await ctx.addMember('restore-admin', 'admin');
    expectError(await restore('acme', adminToken, manifest, split(content), true), 403, 'forbidden');
    expectError(await restore('acme', ctx.developer.token, manifest, split(content), true), 403, 'forbidden');
    const token = await newOrganization('restored-c');
    expect((await restore('restored-c', token, manifest, split(content))).status).toBe(200);
    expectError(await restore('restored-c', token, manifest, split(content)), 409, 'organization_not_empty');
    const forced = await restore('restored-c', token, manifest, split(content), true);
    expect(forced.status).toBe(200);
    const chain = await chainOf('restored-c', token);
    expect(verifyChain(chain)).toBe(-1);
    expect(chain.at(-1)!.data).toMatchObject({
      force: true,
      replaced_chain: { seq: manifest.counts['event']! + 1 },
    });
    // Another owner's session, or another tenant, cannot touch it.
    const begun = await ctx.send(
      'POST',
      '/api/v2/organizations/restored-c/restores',
      { manifest, force: true },
      token,
    );
    const { id } = begun.json as { id: string };
    expectError(
      await ctx.send('PUT', `/api/v2/organizations/acme/restores/${id}/parts/0`, { data: 'x\n' }, ADMIN),
      404,
      'not_found',
    );
    expectError(
      await ctx.send('POST', `/api/v2/organizations/restored-c/restores/${id}/commit`, undefined, ADMIN),
      404,
      'not_found',
    );
    expect(
      (await ctx.send('DELETE', `/api/v2/organizations/restored-c/restores/${id}`, undefined, token)).status,
    ).toBe(200);
    expectError(
      await ctx.send('POST', `/api/v2/organizations/restored-c/restores/${id}/commit`, undefined, token),
      404,
      'not_found',
    );
  });
}

/**
 * A restore into another organization of the same server mints new device ids, and the open change
 * requests it carries follow them: to compare, a request (and each approval) names its device by
 * the device's public key on both sides.
 */
function withDevicesByKey(all: Line[]): (line: Line) => Line {
  const keyOf = new Map(
    all
      .filter((l) => l.kind === 'device')
      .map((l) => [l['id'] as string, `key:${l['public_key'] as string}`]),
  );
  const named = (id: unknown) => (typeof id === 'string' ? (keyOf.get(id) ?? id) : id);
  return (line) => {
    if (line.kind !== 'change_request') return line;
    const approvals = (line['approvals'] as Record<string, unknown>[] | undefined)?.map((a) =>
      'device_id' in a ? { ...a, device_id: named(a['device_id']) } : a,
    );
    return { ...line, device_id: named(line['device_id']), ...(approvals ? { approvals } : {}) };
  };
}
