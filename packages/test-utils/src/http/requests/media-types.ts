/** Item: a JSON body in any charset but UTF-8 is 415, however the Content-Type parameters are written. */
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';

const PROJECTS = '/api/v2/organizations/acme/projects';

/** Registers the Content-Type tests. */
export function describeMediaTypeTests(ctx: ConformanceContext): void {
  describe('content types', () => {
    it('answers 415 for a JSON body declared in any charset but UTF-8', async () => {
      for (const type of [
        'application/json; charset=utf-16',
        'application/json;charset=UTF-16LE',
        'application/json; charset="utf-16"',
        'application/json; charset=iso-8859-1',
        'application/json; charset=utf-8; charset=utf-16',
        'application/json; charset',
      ]) {
        const response = await ctx.send('POST', PROJECTS, { slug: 'charset-x' }, undefined, {
          'content-type': type,
        });
        expect({ type, status: response.status }).toEqual({ type, status: 415 });
        expectError(response, 415, 'unsupported_media_type');
      }
      const listed = await ctx.send('GET', PROJECTS);
      expect(listed.text).not.toContain('charset-x');
    });

    it('accepts no charset or UTF-8 in any case, quoted or not', async () => {
      const types = [
        'application/json; charset=utf-8',
        'application/json;Charset="UTF-8"',
        'application/json',
      ];
      for (const [i, type] of types.entries()) {
        const response = await ctx.send('POST', PROJECTS, { slug: `charset-ok-${i}` }, undefined, {
          'content-type': type,
        });
        expect({ type, status: response.status }).toEqual({ type, status: 201 });
      }
    });
  });
}
