import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the shape check, without type declarations.
import { exceptions } from '../check-shape/exceptions.mjs';
import {
  backtickedPaths,
  headingAnchors,
  markdownFiles,
  missingAnchors,
  missingTargets,
  relativeLinks,
} from '../docs/markdown-links.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const files = markdownFiles(ROOT);
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the Markdown files of the repository', () => {
  it('include the front page, the guides and every package README', () => {
    for (const file of ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'docs/errors.md'])
      expect(files).toContain(file);
    expect(files).toContain(join('packages', 'core', 'README.md'));
  });

  it('link only to files that exist', () => {
    const missing = files.flatMap((file) => missingTargets(ROOT, file, read(file)));
    expect(missing).toEqual([]);
  });

  it('link only to headings that exist', () => {
    const missing = files.flatMap((file) => missingAnchors(ROOT, file, read(file)));
    expect(missing).toEqual([]);
  });

  it('never cite a document that is not in the repository, nor does the published OpenAPI document', () => {
    const citing = [...files, 'docs/openapi.json'].filter((file) =>
      /decisions\.md|source (section|document)/i.test(read(file)),
    );
    expect(citing).toEqual([]);
  });

  it('name every size exception CONTRIBUTING lists, or say there are none', () => {
    const names = [...Object.keys(exceptions.files), ...Object.keys(exceptions.functions)];
    const contributing = read('CONTRIBUTING.md');
    if (names.length === 0) expect(contributing).toContain('There are none today.');
    for (const name of names) expect(contributing).toContain(`\`${name}\``);
  });
});

describe('reading links and paths', () => {
  const page = [
    'See [the guide](docs/a.md#part), ![a picture](b.png), [a site](https://example.com) and [here](#x).',
    'The file `packages/core/src/core.ts:12`, the pattern `examples/*` and `packages/x/…`.',
    '```sh',
    'cat [not a link](nowhere.md) `packages/in/code.ts`',
    '```',
  ].join('\n');

  it('takes relative links without their anchor, and leaves sites, anchors and code alone', () => {
    expect(relativeLinks(page)).toEqual(['docs/a.md', 'b.png']);
  });

  it('takes backticked repository paths without a line number, and leaves patterns alone', () => {
    expect(backtickedPaths(page)).toEqual(['packages/core/src/core.ts']);
  });

  it('makes anchors as GitHub does', () => {
    const headings =
      '# The API\n## `signed_at`\n## Dashboard: Activity, first [screen](x.md)\n## Notes\n## Notes\n';
    expect([...headingAnchors(headings)]).toEqual([
      'the-api',
      'signed_at',
      'dashboard-activity-first-screen',
      'notes',
      'notes-1',
    ]);
    expect(
      missingAnchors(ROOT, 'README.md', 'See [notes](#notes) and [this](#nothing).\n## Notes\n'),
    ).toEqual([{ file: 'README.md', target: '#nothing' }]);
  });

  it('names what is missing, by the page that points at it', () => {
    expect(missingTargets(ROOT, 'README.md', page)).toEqual([
      { file: 'README.md', target: 'docs/a.md' },
      { file: 'README.md', target: 'b.png' },
    ]);
  });
});
