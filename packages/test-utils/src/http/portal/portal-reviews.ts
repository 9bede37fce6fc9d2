/**
 * Item: a portal session with `changes:review` reads and reviews change requests within its
 * member's permissions, reads a key's versions (whether it moved since a request), and never sees
 * secret values: `include_values` is refused to a portal token
 * whatever the member may read.
 */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { type ConformanceContext, ENV_PATH } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { PORTAL_ORIGIN } from '../members/role-table-portal-rows.js';
import { mint, SESSIONS } from './portal-helpers.js';

const REQUESTS = `${ENV_PATH}/change-requests`;

/** Registers the change-review tests of portal sessions. */
export function describePortalReviewTests(ctx: ConformanceContext): void {
  describe('portal session reviews', () => {
    it('opens the change requests with changes:review alone, and never their values', async () => {
      const reviewer = (await mint(ctx, { capabilities: ['changes:review'] })).token;
      const listed = await ctx.send('GET', REQUESTS, undefined, reviewer);
      expect(listed.status, listed.text).toBe(200);
      for (const path of [
        `${REQUESTS}/chr_00000000000000000000000000000000/approve`,
        `${REQUESTS}/chr_00000000000000000000000000000000/reject`,
      ]) {
        // Past the portal's check: the request itself is missing.
        expect((await ctx.send('POST', path, {}, reviewer)).status, path).not.toBe(403);
      }
      for (const query of ['include_values=true', 'include%5Fvalues=true', 'include_values=1']) {
        expectError(
          await ctx.send(
            'GET',
            `${REQUESTS}/chr_00000000000000000000000000000000?${query}`,
            undefined,
            reviewer,
          ),
          403,
          'forbidden',
        );
      }
      expectError(await ctx.send('POST', REQUESTS, {}, reviewer), 403, 'forbidden');
      // A key's versions, for whether it moved since a request; never their values.
      const versions = `${ENV_PATH}/secrets/API_KEY/versions`;
      const read = await ctx.send('GET', `${versions}?limit=1`, undefined, reviewer);
      expect(read.status, read.text).toBe(200);
      expectError(
        await ctx.send('GET', `${versions}?include_values=true`, undefined, reviewer),
        403,
        'forbidden',
      );
      const other = (await mint(ctx, { capabilities: ['activity:read'] })).token;
      expectError(await ctx.send('GET', REQUESTS, undefined, other), 403, 'forbidden');
      const viewer = await ctx.send('POST', SESSIONS, {
        user: 'viewer',
        capabilities: ['changes:review'],
        origin: PORTAL_ORIGIN,
      });
      expectError(viewer, 403, 'forbidden');
    });
  });
}
