import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md is the one page that says where things live: a package or a folder of core that
// it does not name is a part a newcomer cannot place. (Its paths are held to existing files by the
// Markdown links test.)
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(`${ROOT}ARCHITECTURE.md`, 'utf8');
const folders = (path: string) =>
  readdirSync(`${ROOT}${path}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

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
});
