import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/permissions.js';
import { createMemoryStore } from '../memory/index.js';
import { decodeVersionCursor, encodeVersionCursor, readVersionHistory } from './version-history.js';

const AT = '2026-11-25T00:00:00.000Z';
const principal: Principal = { organizationId: 'org_1', user: 'ann', role: 'viewer', grants: [] };
const project = { id: 'prj_1', organization_id: 'org_1', slug: 'web', name: 'web', created_at: AT };
const environment = {
  id: 'env_1',
  organization_id: 'org_1',
  project_id: 'prj_1',
  slug: 'prod',
  require_strict_conflict_mode: false,
  created_at: AT,
};

describe('readVersionHistory', () => {
  it('refuses include_values without secrets:read, though metadata stays readable, and records nothing', async () => {
    const store = createMemoryStore();
    await store.secrets.applyPush({
      organizationId: 'org_1',
      environmentId: 'env_1',
      changes: [{ key: 'K', value: 'secret' }],
      force: false,
      now: AT,
      eventTemplate: {
        id: 'evt_1',
        occurred_at: AT,
        organization: 'acme',
        project: 'web',
        environment: 'prod',
        actor: { type: 'user', id: 'ann' },
        device_id: 'dev_1',
        mode: { strict: false, force: false },
      },
    });
    const drafts: string[] = [];
    const read = (includeValues: boolean) =>
      readVersionHistory({
        store,
        keyring: undefined,
        principal,
        organizationId: 'org_1',
        project,
        environment,
        key: 'K',
        limit: 10,
        cursor: undefined,
        includeValues,
        event: (type, data) => {
          drafts.push(type);
          return {
            id: 'evt_2',
            type,
            occurred_at: AT,
            organization: 'acme',
            actor: { type: 'user', id: 'ann' },
            data,
          };
        },
        // A role that may read the history but not pull the secrets.
        authorize: (_who, permission) =>
          permission === 'secrets:read' ? { ok: false, reason: 'no secrets:read' } : { ok: true },
      });
    await expect(read(true)).rejects.toMatchObject({ code: 'forbidden' });
    expect(drafts).toEqual([]);
    expect(await read(false)).toEqual({
      versions: [
        {
          version: 1,
          deleted: false,
          occurred_at: AT,
          actor: { type: 'user', id: 'ann' },
          device_id: 'dev_1',
          event_id: 'evt_1',
        },
      ],
      next_cursor: null,
    });
    expect((await store.activity.list({ organizationId: 'org_1', limit: 10 })).map((e) => e.type)).toEqual([
      'push_applied',
    ]);
  });

  it('gives out cursors it reads back and refuses any other', () => {
    expect(decodeVersionCursor(encodeVersionCursor(42))).toBe(42);
    for (const bad of ['', 'djE6MA', Buffer.from('v1:99999999999').toString('base64url'), 'c1:5']) {
      expect(() => decodeVersionCursor(bad)).toThrow(/cursor/);
    }
  });
});
