/** Roles, grants, the permission matrix, tokens and the activity log. */
import { verifyChain } from '@latchkey/core';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADDRESS, ADMIN, type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers these tests of the HTTP conformance suite. */
export function describeRoleTests(ctx: ConformanceContext): void {
  const { send, push, events } = ctx;

  describe('roles and grants', () => {
    it('lets a developer push only where granted, and a viewer only read', async () => {
      expect((await push(ctx.developer, { changes: [{ key: 'DEV_OK', value: 'v' }] })).status).toBe(200);
      const dev = '/api/v2/organizations/acme/projects/web/environments/dev';
      expectError(
        await push(
          ctx.developer,
          { changes: [{ key: 'X', value: 'v' }] },
          { ...ADDRESS, environment: 'dev' },
          dev,
        ),
        403,
        'forbidden',
      );
      expect((await send('GET', `${ENV_PATH}/secrets`, undefined, ctx.viewerToken)).status).toBe(200);
      expectError(
        await send('GET', '/api/v2/organizations/acme/projects/api/environments', undefined, ctx.viewerToken),
        403,
        'forbidden',
      );
      expectError(
        await send('POST', '/api/v2/organizations/acme/projects', { slug: 'nope' }, ctx.viewerToken),
        403,
        'forbidden',
      );
      expectError(
        await send(
          'POST',
          '/api/v2/organizations/acme/tokens',
          { user: 'viewer', name: 'x' },
          ctx.developer.token,
        ),
        403,
        'forbidden',
      );
      const listed = await send('GET', '/api/v2/organizations/acme/projects', undefined, ctx.viewerToken);
      expect((listed.json as { projects: { slug: string }[] }).projects.map((p) => p.slug)).toEqual(['web']);
    });

    it('returns the permission matrix with scopes and effective grants', async () => {
      const response = await send('GET', '/api/v2/organizations/acme/permission-matrix');
      expect(response.status).toBe(200);
      const matrix = response.json as {
        matrix: Record<string, Record<string, boolean>>;
        permissions: { name: string; scope: string }[];
        members: { user: string; effective: { permission: string; project?: string }[] }[];
      };
      expect(matrix.matrix['admin']!['secrets:force_overwrite']).toBe(true);
      expect(matrix.matrix['developer']!['secrets:force_overwrite']).toBe(false);
      expect(matrix.permissions.find((p) => p.name === 'secrets:push')?.scope).toBe('environment');
      const dev = matrix.members.find((m) => m.user === 'dev')!;
      expect(dev.effective).toEqual(
        expect.arrayContaining([expect.objectContaining({ permission: 'secrets:push', project: 'web' })]),
      );
      expectError(
        await send('GET', '/api/v2/organizations/acme/permission-matrix', undefined, ctx.viewerToken),
        403,
        'forbidden',
      );
    });

    it('never returns token values or hashes after creation', async () => {
      const listed = await send('GET', '/api/v2/organizations/acme/tokens');
      expect(listed.status).toBe(200);
      expect(listed.text).not.toContain('lk_');
      expect(listed.text).not.toContain('hash');
    });
  });

  describe('activity log', () => {
    it('keeps secret values out of events and the chain intact', async () => {
      const all = await events();
      const text = JSON.stringify(all);
      for (const value of ['postgres://one', 'postgres://two', 'forced', 'writer-'])
        expect(text).not.toContain(value);
      expect(text).not.toContain(ADMIN);
      expect(verifyChain([...all].reverse())).toBe(-1);
      expect(all.length).toBeGreaterThan(50);
    });
  });
}
