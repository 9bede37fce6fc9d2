import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the shape check, without type declarations.
import { CORE_LAYERS } from '../check-shape/layers.mjs';

// ARCHITECTURE.md is the one page that says where things live: a package or a folder of core that
// it does not name is a part a newcomer cannot place. (Its paths are held to existing files by the
// Markdown links test.)
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(`${ROOT}ARCHITECTURE.md`, 'utf8');
const entries = (path: string) => readdirSync(`${ROOT}${path}`, { withFileTypes: true });
const folders = (path: string) =>
  entries(path)
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** The rows of the page's table of core's layers, as `layer unit`, top first. */
function layerRows(): string[] {
  const rows = [...page.matchAll(/^\| (\w+) +\| `([^`]+)` +\|/gm)];
  return rows.map(([, layer, unit]) => `${layer} ${unit!.replace(/^packages\/core\/src\//, '')}`);
}

describe('ARCHITECTURE.md', () => {
  it.each(folders('packages'))('names the package %s', (name) => {
    const { name: published } = JSON.parse(readFileSync(`${ROOT}packages/${name}/package.json`, 'utf8')) as {
      name: string;
    };
    expect(
      page.includes(`packages/${name}`) || page.includes(`\`${name}\``) || page.includes(published),
    ).toBe(true);
  });

  it.each(folders('packages/core/src'))('names the folder %s/ of core', (name) => {
    expect(page).toContain(`\`${name}/\``);
  });

  it('lists the layers of core as scripts/check-shape/layers.mjs declares them, in its order', () => {
    const declared = (CORE_LAYERS as { layer: string; units: Record<string, string> }[]).flatMap(
      ({ layer, units }) => Object.keys(units).map((unit) => `${layer} ${unit}`),
    );
    expect(layerRows()).toEqual(declared);
  });

  it.each(
    entries('packages/core/src/faces')
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
      .map((entry) => entry.name),
  )('names the face file %s', (name) => {
    expect(page).toContain(`packages/core/src/faces/${name}`);
  });
});
