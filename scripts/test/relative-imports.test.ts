/** The shape check that a relative import never leaves its package, over a small tree made here. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the shape check, without type declarations.
import { relativeImportFaults } from '../check-shape/relative-imports.mjs';

describe('check-shape: relative imports stay inside their package', () => {
  const root = mkdtempSync(join(tmpdir(), 'latchkey-relative-imports-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  write('package.json', '{}');
  write('tsup.base.ts', 'export const x = 1;\n');
  write('examples/shared.ts', 'export const y = 1;\n');
  write('packages/a/package.json', '{}');
  write('packages/a/src/index.ts', "export { z } from './inner/z.js';\n");
  write(
    'packages/a/src/inner/z.ts',
    "import { y } from '../../../../examples/shared.js';\nexport const z = y;\n",
  );
  write('packages/a/tsup.config.ts', "import { x } from '../../tsup.base.js';\nexport default x;\n");
  write('packages/b/package.json', '{}');
  write('packages/b/test/t.ts', "const a = await import('../../a/src/index.js');\nexport default a;\n");
  write('examples/app/package.json', '{}');
  write('examples/app/src/main.ts', "import '../../shared.js';\nimport '@latchkey/a';\n");

  it('names every import that leaves its package, and nothing else', () => {
    expect(relativeImportFaults(root)).toEqual([
      "examples/app/src/main.ts: imports '../../shared.js' from another package (examples/app -> .)",
      "packages/a/src/inner/z.ts: imports '../../../../examples/shared.js' from another package (packages/a -> .)",
      "packages/b/test/t.ts: imports '../../a/src/index.js' from another package (packages/b -> packages/a)",
    ]);
  });
});
