/** Item: the signed_at window is +-300 whole seconds, inclusive, whatever the sub-second clock reads. */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

/** Registers the signed_at window tests; they pin the suite's server clock. */
export function describeClockTests(ctx: ConformanceContext): void {
  describe('signed_at window', () => {
    it('accepts +-300 s and refuses +-301 s at X.000, X.001 and X.999 server time', async () => {
      const second = Math.floor(Date.now() / 1000);
      for (const millis of [0, 1, 999]) {
        ctx.clock.pinnedMs = second * 1000 + millis;
        for (const offset of [-300, 300]) {
          const response = await ctx.push(ctx.admin, {
            signed_at: second + offset,
            changes: [{ key: 'WINDOW', value: `${millis}/${offset}` }],
          });
          expect({ millis, offset, status: response.status }).toEqual({ millis, offset, status: 200 });
        }
        for (const offset of [-301, 301]) {
          const response = await ctx.push(ctx.admin, {
            signed_at: second + offset,
            changes: [{ key: 'WINDOW', value: 'late' }],
          });
          expectError(response, 401, 'invalid_client_signature');
        }
      }
    });
  });
}
