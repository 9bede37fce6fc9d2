/** A key's version history: kept values, tombstones, pages, values refused or recorded, tenancy. */
import type { schemas } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, ENV_PATH, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

type VersionView = schemas.Infer<typeof schemas.SecretVersionSchema>;

interface VersionPage {
  versions: VersionView[];
  next_cursor: string | null;
}

/** Registers these tests of the HTTP conformance suite. */
export function describeSecretVersionTests(ctx: ConformanceContext): void {
  const { send, push, events } = ctx;
  const versionsOf = (key: string, query = '', token?: string) =>
    send('GET', `${ENV_PATH}/secrets/${key}/versions${query}`, undefined, token);

  describe('secret version history', () => {
    it('keeps the values of versions 6–15 of 15 pushes and the metadata of 1–5, newest first', async () => {
      const eventIds: string[] = [];
      for (let i = 1; i <= 15; i++) {
        const pushed = await push(ctx.admin, {
          changes: [{ key: 'HISTORY_KEY', value: `value-${i}`, if_version: i - 1 }],
        });
        expect(pushed.status).toBe(200);
        eventIds.push((pushed.json as { event_id: string }).event_id);
      }
      const meta = await versionsOf('HISTORY_KEY', '?limit=100');
      expect(meta.status).toBe(200);
      const page = meta.json as VersionPage;
      expect(page.next_cursor).toBeNull();
      expect(page.versions.map((v) => v.version)).toEqual([
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
      ]);
      expect(page.versions.every((v) => v.value === undefined)).toBe(true);
      expect(page.versions[0]).toMatchObject({
        deleted: false,
        actor: { type: 'user', id: 'admin' },
        device_id: ctx.admin.deviceId,
        event_id: eventIds[14],
      });

      const withValues = await versionsOf('HISTORY_KEY', '?limit=100&include_values=true');
      expect(withValues.status).toBe(200);
      const values = (withValues.json as VersionPage).versions.map((v) => [v.version, v.value]);
      expect(values).toEqual([
        ...[15, 14, 13, 12, 11, 10, 9, 8, 7, 6].map((i) => [i, `value-${i}`]),
        ...[5, 4, 3, 2, 1].map((i) => [i, undefined]),
      ]);
      const [read] = await events('secret_versions_read');
      expect(read).toMatchObject({
        project: 'web',
        environment: 'prod',
        actor: { id: 'admin' },
        data: { key: 'HISTORY_KEY', versions: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6] },
      });
      expect(Object.keys(read!.data).sort()).toEqual(['key', 'versions']);
      // The event names the versions, never a value.
      expect(JSON.stringify(read)).not.toContain('value-1');
    });

    it('walks the versions in pages with an opaque cursor, tombstones included', async () => {
      for (const change of [{ value: 'a' }, { delete: true as const }, { value: 'c', if_version: 0 }]) {
        expect((await push(ctx.admin, { changes: [{ key: 'PAGED', ...change }] })).status).toBe(200);
      }
      const first = (await versionsOf('PAGED', '?limit=2&include_values=true')).json as VersionPage;
      expect(first.versions.map((v) => [v.version, v.deleted, v.value])).toEqual([
        [3, false, 'c'],
        [2, true, undefined],
      ]);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = (await versionsOf('PAGED', `?limit=2&cursor=${first.next_cursor}`)).json as VersionPage;
      expect(second).toEqual({ versions: [expect.objectContaining({ version: 1 })], next_cursor: null });
      expectError(await versionsOf('PAGED', '?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request');
      expect((await versionsOf('NEVER_PUSHED')).json).toEqual({ versions: [], next_cursor: null });
    });

    it('refuses include_values to a member who may not read the environment, and records nothing', async () => {
      await push(ctx.admin, { changes: [{ key: 'GUARDED', value: 'secret' }] });
      const before = (await events('secret_versions_read')).length;
      const devPath = '/api/v2/organizations/acme/projects/web/environments/dev';
      const refused = await send(
        'GET',
        `${devPath}/secrets/GUARDED/versions?include_values=true`,
        undefined,
        ctx.developer.token,
      );
      expectError(refused, 403, 'forbidden');
      expect(JSON.stringify(refused.json)).not.toContain('secret');
      expect((await events('secret_versions_read')).length).toBe(before);
      // Metadata alone records no read.
      expect((await versionsOf('GUARDED', '', ctx.developer.token)).status).toBe(200);
      expect((await events('secret_versions_read')).length).toBe(before);
    });

    it('answers a malformed key with 400 and another organization with 404', async () => {
      const malformed = await versionsOf('1-not-a-key');
      const body = expectError(malformed, 400, 'invalid_request') as { error: { details?: unknown } };
      expect(body.error.details).toEqual([expect.objectContaining({ path: 'path.key' })]);
      expectError(await versionsOf('GUARDED', '', OTHER_ORG_ADMIN), 404, 'not_found');
      expectError(await versionsOf('GUARDED', '?include_values=maybe'), 400, 'invalid_request');
    });
  });
}
