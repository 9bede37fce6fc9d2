/**
 * Each published face's names are checked in (`scripts/test/faces/`, a file per face): adding,
 * removing or renaming an export, a type-only one too, is a diff to review. After a deliberate
 * change, `npx vitest run scripts/test/faces.test.ts -u` rewrites the files; a face without a file
 * fails where CI is set, since Vitest writes no new snapshot there.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledNames, faceText, publishedFaces } from './face-names.js';

const root = new URL('../..', import.meta.url).pathname;
const faces = publishedFaces(root);
const compiled = compiledNames(
  root,
  faces.map((face) => face.file),
);

describe('the faces of the published packages', () => {
  it.each(faces.map((face) => [face.snapshot, face] as const))(
    '%s',
    async (_, face) => {
      const module = (await import(pathToFileURL(join(root, face.file)).href)) as Record<string, unknown>;
      const values = Object.keys(module);
      const all = compiled.get(face.file)!;
      // The compiler's list is the whole face: every name the module carries at run time is in it.
      expect(values.filter((name) => !all.includes(name))).toEqual([]);
      await expect(faceText(face, values, all)).toMatchFileSnapshot(
        join(root, 'scripts/test/faces', face.snapshot),
      );
      // The first face imported transforms most of the workspace's sources: on a loaded machine, that
      // takes longer than the default 30 s.
    },
    180_000,
  );

  it("points every entry of core into core's faces folder", () => {
    const core = faces.filter((face) => face.specifier.split('/').slice(0, 2).join('/') === '@latchkey/core');
    expect(core.length).toBeGreaterThanOrEqual(6);
    expect(
      core.map((face) => face.file).filter((file) => !file.startsWith('packages/core/src/faces/')),
    ).toEqual([]);
  });

  it('lists every name of the browser client face on the Node client face too', () => {
    const client = faces.filter((face) => face.specifier === '@latchkey/core/client');
    const [node, browser] = ['null', 'browser'].map(
      (condition) => compiled.get(client.find((face) => String(face.condition) === condition)!.file)!,
    );
    expect(browser!.length).toBeGreaterThan(0);
    expect(browser!.filter((name) => !node!.includes(name))).toEqual([]);
  });

  it('keeps no snapshot of a face that is gone', () => {
    const expected = faces.map((face) => face.snapshot).sort();
    expect(readdirSync(join(root, 'scripts/test/faces')).sort()).toEqual(expected);
  });
});
