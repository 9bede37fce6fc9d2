import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as main from './main.js';
import * as store from './store.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every module the file loads when it runs, transitively, by path (type-only imports load nothing). */
function loaded(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from '([^']+)'/gms)) {
    if (specifier!.startsWith('.')) loaded(join(dirname(file), specifier!.replace(/\.js$/, '.ts')), seen);
    else seen.add(specifier!);
  }
  return seen;
}

it('the store entry loads no app code', () => {
  const modules = [...loaded(join(src, 'faces/store.ts'))].map((m) => m.replace(`${src}/`, ''));
  expect(modules).toContain('secrets/push-plan.ts');
  const app = modules.filter(
    (m) =>
      /^(core|config\/|http\/|routes\/|node\/|memory\/|portal\/|changes\/|backup\/|client\/|workload\/|auth\/|schemas\/|health\/|keyring\/)/.test(
        m,
      ) || ['zod', 'undici'].includes(m),
  );
  expect(app).toEqual([]);
});

it('store helpers are exported by the store entry, not by the main one', () => {
  const helpers = [
    'planPush',
    'versionMatches',
    'sealEvent',
    'GENESIS_HASH',
    'outboxState',
    'attemptShare',
    'floorTo',
    'HOUR_MS',
    'MINUTE_MS',
    'emptyRollup',
    'mergeRollup',
    'spanCover',
    'mergeHistogram',
    'lastDeliveryOf',
    'sealCommitted',
    'metricsReport',
    'inclusionProof',
  ];
  for (const name of helpers) {
    expect(store, name).toHaveProperty(name);
    expect(main, name).not.toHaveProperty(name);
  }
});
