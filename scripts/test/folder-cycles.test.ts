/** The shape check that the folders of a package form no circle, and core's layer order, over small trees made here. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the shape check, without type declarations.
import { cruiseSources } from '../check-shape/cycles.mjs';
// @ts-expect-error: as above.
import { folderCycleFaults } from '../check-shape/folder-cycles.mjs';
// @ts-expect-error: as above.
import { CORE_SOURCE, CORE_UNITS, layerFaults } from '../check-shape/layers.mjs';

describe('check-shape: no circle between the folders of a package', () => {
  const root = mkdtempSync(join(tmpdir(), 'latchkey-folder-cycles-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
  );
  // `circle`: no file circle (x/one -> y/two -> x/three), but x/ and y/ import each other, the
  // way back by a type import only; `main.ts` beside them is a unit of its own and closes nothing.
  write('packages/circle/src/main.ts', "export { one } from './x/one.js';\n");
  write('packages/circle/src/x/one.ts', "import { two } from '../y/two.js';\nexport const one = two + 1;\n");
  write('packages/circle/src/x/three.ts', 'export type Three = 3;\n');
  write(
    'packages/circle/src/y/two.ts',
    "import type { Three } from '../x/three.js';\nexport const two: Exclude<Three, 3> | 2 = 2;\n",
  );
  // `line`: the same files with the way back removed, and an entry file inside `y/` that imports
  // `x/`, declared a unit of its own.
  write('packages/line/src/x/one.ts', "import { two } from '../y/two.js';\nexport const one = two + 1;\n");
  write('packages/line/src/y/two.ts', 'export const two = 2;\n');
  write('packages/line/src/y/index.ts', "export { one } from '../x/one.js';\n");
  // `nested`: the same circle one level down, between two folders of `a/`; `src/` sees only `a/`.
  write(
    'packages/nested/src/a/x/one.ts',
    "import { two } from '../y/two.js';\nexport const one = two + 1;\n",
  );
  write('packages/nested/src/a/x/three.ts', 'export type Three = 3;\n');
  write(
    'packages/nested/src/a/y/two.ts',
    "import type { Three } from '../x/three.js';\nexport const two: Exclude<Three, 3> | 2 = 2;\n",
  );

  it('fails the packages whose folders import each other, at any depth, naming each arrow, and passes the other', async () => {
    const cruised = await cruiseSources(root);
    expect(cruised.output.summary.violations).toEqual([]);
    expect(folderCycleFaults(cruised, { 'packages/line/src': ['y/index.ts'] })).toEqual([
      'folder circle in packages/circle/src: x/, y/\n' +
        '    x/ -> y/ (1: x/one.ts -> y/two.ts)\n' +
        '    y/ -> x/ (1: y/two.ts -> x/three.ts)',
      'folder circle in packages/nested/src/a: x/, y/\n' +
        '    x/ -> y/ (1: x/one.ts -> y/two.ts)\n' +
        '    y/ -> x/ (1: y/two.ts -> x/three.ts)',
    ]);
  });

  it('counts an entry file inside a folder as part of it unless it is declared a unit of its own', async () => {
    const cruised = await cruiseSources(root);
    const line = { ...cruised, folders: ['packages/line/src'] };
    expect(folderCycleFaults(line, {})).toEqual([
      'folder circle in packages/line/src: x/, y/\n' +
        '    x/ -> y/ (1: x/one.ts -> y/two.ts)\n' +
        '    y/ -> x/ (1: y/index.ts -> x/one.ts)',
    ]);
  });
});

describe("check-shape: core's layer order", () => {
  it('passes arrows that run down the list and names one that runs up, or a unit not listed', () => {
    expect(CORE_UNITS.indexOf('http/')).toBeLessThan(CORE_UNITS.indexOf('activity/'));
    const arrows = new Map([
      ['http/ -> activity/', ['http/router.ts -> activity/event-types/index.ts']],
      ['activity/ -> http/', ['activity/cosign.ts -> http/router.ts']],
      ['extra/ -> errors/', ['extra/a.ts -> errors/latchkey-error.ts']],
    ]);
    expect(layerFaults(arrows, CORE_UNITS, CORE_SOURCE)).toEqual([
      'layer order in packages/core/src: activity/ (domain) imports http/ (http), listed above it (1: activity/cosign.ts -> http/router.ts)',
      'layer order in packages/core/src: extra/ has no place in scripts/check-shape/layers.mjs',
    ]);
  });
});
