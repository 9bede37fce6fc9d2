import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createCore } from '../core.js';
import { paramSchemas } from '../http/validation.js';
import { text, textFault, wellFormed } from './text.js';

/** Every string schema inside `schema`, with where it is. */
function stringLeaves(schema: z.ZodType, at: string): { at: string; schema: z.ZodType }[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (child: unknown, where = at) => stringLeaves(child as z.ZodType, where);
  switch (def.type) {
    case 'string':
      return [{ at, schema }];
    case 'object':
      return Object.entries(def['shape'] as Record<string, z.ZodType>).flatMap(([key, child]) =>
        inner(child, `${at}.${key}`),
      );
    case 'array':
      return inner(def['element'], `${at}[]`);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return inner(def['innerType']);
    case 'union':
      return (def['options'] as z.ZodType[]).flatMap((option) => stringLeaves(option, at));
    case 'pipe':
      return [...inner(def['in']), ...inner(def['out'])];
    case 'record':
      return [...inner(def['keyType'], `${at}{key}`), ...inner(def['valueType'])];
    case 'literal':
    case 'enum':
    case 'boolean':
    case 'number':
    case 'int':
    case 'transform':
      return [];
    default:
      throw new Error(`${at}: a ${def.type} schema this walk does not know; teach it`);
  }
}

describe('well-formed text', () => {
  it('accepts any well-formed Unicode, astral and separators included', () => {
    for (const value of ['', 'plain', '😀 a\u0301', '\u2028\u2029\u0085', '\uFEFF', '\uD83D\uDE00']) {
      expect(textFault(value)).toBeNull();
      expect(text().safeParse(value).success).toBe(true);
    }
  });

  it('names a lone surrogate and NUL, with their index', () => {
    expect(textFault('ab\uD800')).toBe('must be well-formed Unicode: a lone surrogate U+D800 is at index 2');
    expect(textFault('\uDC00x')).toContain('lone surrogate U+DC00 is at index 0');
    // A low surrogate before a high one is two lone halves, not a pair.
    expect(textFault('\uDE00\uD83D')).toContain('U+DE00 is at index 0');
    expect(textFault('ok\u0000')).toBe('must not contain NUL (U+0000): one is at index 2');
  });

  it('stops the checks after it, so details name the real fault', () => {
    const slug = text().regex(/^[a-z]+$/, 'a slug');
    const issues = slug.safeParse('a\uD800').error!.issues;
    expect(issues).toEqual([expect.objectContaining({ message: expect.stringContaining('lone surrogate') })]);
  });

  it('guards every string a route takes: bodies, queries and path parameters', () => {
    const core = createCore();
    const leaves = [
      ...core.routes.flatMap((route) => [
        ...(route.body ? stringLeaves(route.body, `${route.operationId} body`) : []),
        ...(route.query ? stringLeaves(route.query, `${route.operationId} query`) : []),
      ]),
      ...Object.entries(paramSchemas).flatMap(([name, schema]) => stringLeaves(schema, `path ${name}`)),
    ];
    expect(leaves.length).toBeGreaterThan(30);
    const unguarded = leaves
      .filter(({ schema }) => {
        const checks = (schema as unknown as { _zod: { def: { checks?: unknown[] } } })._zod.def.checks ?? [];
        return !checks.includes(wellFormed);
      })
      .map(({ at }) => at);
    expect(unguarded).toEqual([]);
  });
});
