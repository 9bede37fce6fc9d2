/**
 * A restore applied in steps on PGlite that its process did not finish (it stopped after writing
 * part of the organization) leaves nothing half visible after a restart: the store that opens on
 * the database empties the organization, leaves the restorer its owner and drops the session, and
 * other organizations keep all they had. A restore still being staged (not claimed) is kept.
 */
import { emptyBackupCounts } from '@latchkey/core';
import type { RestoreSession } from '@latchkey/core/store';
import { expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.js';
import { freshPglite } from './fresh-pglite.js';

const AT = '2026-11-22T00:00:00.000Z';
const LATER = '2026-11-22T01:00:00.000Z';

const session = (id: string, organizationId: string): RestoreSession => ({
  id,
  organization_id: organizationId,
  user: 'restorer',
  manifest: { sha256: '0'.repeat(64), bytes: 10, counts: emptyBackupCounts() },
  force: true,
  created_at: AT,
  expires_at: '2026-11-22T02:00:00.000Z',
});

/** An organization with a member, a project, an environment and a key, as a restore half wrote it. */
async function halfWritten(store: PostgresStore, org: string) {
  await store.organizations.create({ id: `org_${org}`, slug: org, name: org, created_at: AT });
  for (const user of ['restorer', 'someone']) {
    const role = user === 'restorer' ? 'viewer' : 'admin';
    await store.members.create({ organization_id: `org_${org}`, user, role, grants: [], created_at: AT });
  }
  await store.projects.create({
    id: `prj_${org}`,
    organization_id: `org_${org}`,
    slug: 'web',
    name: 'web',
    created_at: AT,
  });
  const environment = {
    id: `env_${org}`,
    organization_id: `org_${org}`,
    project_id: `prj_${org}`,
    slug: 'prod',
    require_strict_conflict_mode: false,
    created_at: AT,
  };
  await store.environments.create(environment);
  await store.restores.insertSecrets([
    { environment_id: environment.id, key: 'HALF', version: 1, value: 'v1', updated_at: AT },
  ]);
}

it('a PGlite store opening on a restore its process did not finish empties that organization, the restorer its owner', async () => {
  const driver = await freshPglite();
  const before = await createPostgresStore({ driver, sealSweepMs: 0 });
  for (const org of ['cut', 'staged', 'bystander']) await halfWritten(before, org);
  // `cut` was being applied when its process stopped; `staged` has a session not yet committed.
  for (const org of ['cut', 'staged']) {
    expect(await before.restores.begin(session(`rst_${org}`, `org_${org}`), AT)).toBeNull();
  }
  expect(await before.restores.claim('org_cut', 'rst_cut', LATER)).not.toBeNull();

  // The restart: a store opens on the same database.
  const after = await createPostgresStore({ driver, sealSweepMs: 0 });
  try {
    expect(await after.projects.list('org_cut')).toEqual([]);
    expect(await after.secrets.listLive('env_cut')).toEqual([]);
    expect((await after.members.list('org_cut')).map((m) => [m.user, m.role])).toEqual([
      ['restorer', 'owner'],
    ]);
    expect(await after.restores.get('org_cut', 'rst_cut', LATER)).toBeNull();
    // A new restore may begin there.
    expect(await after.restores.begin(session('rst_again', 'org_cut'), LATER)).toBeNull();

    for (const org of ['staged', 'bystander']) {
      expect((await after.projects.list(`org_${org}`)).map((p) => p.slug)).toEqual(['web']);
      expect((await after.secrets.listLive(`env_${org}`)).map((s) => s.key)).toEqual(['HALF']);
      expect(await after.members.list(`org_${org}`)).toHaveLength(2);
    }
    expect(await after.restores.get('org_staged', 'rst_staged', LATER)).not.toBeNull();
  } finally {
    await after.close();
  }
});
