import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every module the file imports, transitively, by path (type-only imports included: they cost nothing, but keep the rule simple). */
function graph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/from '([^']+)'/g)) {
    if (specifier!.startsWith('.')) graph(join(dirname(file), specifier!.replace(/\.js$/, '.ts')), seen);
    else seen.add(specifier!);
  }
  return seen;
}

it('the client entry loads no server code', () => {
  const modules = [...graph(join(src, 'faces/client.ts'))].map((m) => m.replace(`${src}/`, ''));
  expect(modules).toContain('client/verify-export.ts');
  const server = modules.filter(
    (m) =>
      /^(core|config\/|http\/|routes\/|node\/|memory\/|portal\/|changes\/|backup\/|workload\/|auth\/(principal|bootstrap)|schemas\/|delivery\/|metrics\/|health\/|keyring\/|store\/)/.test(
        m,
      ) || m === 'zod',
  );
  expect(server).toEqual([]);
});

it('the export checks load no Node module, so a browser runs them as the CLI does', () => {
  for (const file of ['faces/client-browser.ts', 'client/verify-export.ts', 'client/web-verify-export.ts']) {
    const modules = [...graph(join(src, file))];
    expect(modules.filter((m) => m.startsWith('node:'))).toEqual([]);
  }
});

it('the proof verification and the Merkle hashes import nothing of Node, so they run in a browser', () => {
  const modules = [...graph(join(src, 'client/verify-proofs.ts')), ...graph(join(src, 'encoding/base64.ts'))];
  expect(modules.some((m) => m.endsWith('activity/merkle/sha256.ts'))).toBe(true);
  expect(modules.filter((m) => m.startsWith('node:'))).toEqual([]);
});
