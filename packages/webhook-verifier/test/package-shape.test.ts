import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));
const read = (file: string) => readFileSync(src(file), 'utf8');
const importsOf = (code: string) =>
  [...code.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => m[1]!);

/** Every module reachable from `entry` through relative imports. */
function graph(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const code = read(file);
    seen.set(file, code);
    for (const specifier of importsOf(code)) {
      if (specifier.startsWith('.'))
        visit(posix.join(posix.dirname(file), specifier).replace(/\.js$/, '.ts'));
    }
  };
  visit(entry);
  return seen;
}

describe('package shape', () => {
  it('the /web entry reaches no node: module, no package and no Buffer', () => {
    const modules = graph('web.ts');
    expect(modules.size).toBeGreaterThan(5);
    for (const [file, code] of modules) {
      for (const specifier of importsOf(code)) expect(specifier, file).toMatch(/^\.\.?\//);
      // Comments and messages may mention Buffer; code may not use it.
      const codeOnly = code
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "''");
      expect(codeOnly, file).not.toMatch(/\bBuffer\b/);
    }
  });

  it('the main entry uses node:crypto and no other package', () => {
    const specifiers = [...graph('index.ts').values()].flatMap(importsOf).filter((s) => !s.startsWith('.'));
    expect(new Set(specifiers)).toEqual(new Set(['node:crypto']));
  });

  it('the /redis entry imports nothing at run time (bring your own client)', () => {
    expect(importsOf(read('redis.ts')).every((s) => s.startsWith('./'))).toBe(true);
    expect(read('redis.ts')).not.toMatch(/from 'ioredis'/);
  });

  it('the README shows each recipe exactly as tested', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    for (const recipe of ['express', 'fastify', 'hono', 'node-http']) {
      const code = read(`recipes/${recipe}.ts`);
      const region = /\/\/ #region recipe\n([\s\S]*?)\n\s*\/\/ #endregion recipe/.exec(code)?.[1];
      expect(region, recipe).toBeDefined();
      // Compare without the indentation the surrounding function adds.
      const dedent = (text: string) =>
        text
          .split('\n')
          .map((line) => line.trim())
          .join('\n');
      expect(dedent(readme), recipe).toContain(dedent(region!));
    }
  });
});
