/**
 * Migration 10 back-fills a version for each key's head written before history was kept: its value
 * (sealed or not, as stored) and no actor or event; placeholder rows of never-pushed keys are left out.
 */
import { describe, expect, it } from 'vitest';
import { createPostgresStore, MIGRATIONS, migrate, tablesOf } from '../src/index.js';
import { freshPglite } from './fresh-pglite.js';

describe('migration 10 on PGlite', () => {
  it('back-fills one version per head, with its value, then pushes go on from it', async () => {
    const driver = await freshPglite();
    const t = tablesOf('latchkey');
    await migrate(
      driver,
      t,
      MIGRATIONS.filter((m) => m.id < 10),
    );
    const at = '2026-11-01T00:00:00.000Z';
    await driver.query(`INSERT INTO ${t.organizations} VALUES ('org_1', 'acme', 'Acme', $1)`, [at]);
    await driver.query(`INSERT INTO ${t.projects} VALUES ('prj_1', 'org_1', 'web', 'web', $1)`, [at]);
    await driver.query(
      `INSERT INTO ${t.environments} VALUES ('env_1', 'org_1', 'prj_1', 'prod', false, $1)`,
      [at],
    );
    await driver.query(
      `INSERT INTO ${t.secrets} (environment_id, key, version, deleted, value, updated_at) VALUES
       ('env_1', 'LIVE', 3, false, 'three', $1), ('env_1', 'GONE', 2, true, NULL, $1),
       ('env_1', 'PLACEHOLDER', 0, true, NULL, $1)`,
      [at],
    );
    const store = await createPostgresStore({ driver });
    // Migration 10 and every one after it.
    expect(store.migrations?.applied).toEqual(MIGRATIONS.filter((m) => m.id >= 10).map((m) => m.id));
    expect(await store.secrets.listAllVersions('env_1')).toEqual([
      {
        key: 'GONE',
        version: 2,
        deleted: true,
        value: null,
        occurred_at: at,
        actor: null,
        device_id: null,
        event_id: null,
      },
      {
        key: 'LIVE',
        version: 3,
        deleted: false,
        value: 'three',
        occurred_at: at,
        actor: null,
        device_id: null,
        event_id: null,
      },
    ]);
    const pushed = await store.secrets.applyPush({
      organizationId: 'org_1',
      environmentId: 'env_1',
      changes: [{ key: 'LIVE', value: 'four', if_version: 3 }],
      force: false,
      now: at,
      eventTemplate: {
        id: 'evt_1',
        occurred_at: at,
        organization: 'acme',
        project: 'web',
        environment: 'prod',
        actor: { type: 'user', id: 'admin' },
        device_id: 'dev_1',
        mode: { strict: false, force: false },
      },
    });
    expect(pushed.ok).toBe(true);
    expect(
      (await store.secrets.listVersions('env_1', 'LIVE', { limit: 10 })).map((v) => [v.version, v.value]),
    ).toEqual([
      [4, 'four'],
      [3, 'three'],
    ]);
    await driver.close();
  });
});
