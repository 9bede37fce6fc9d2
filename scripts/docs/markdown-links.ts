/**
 * What a Markdown file of the repository points at: its relative links and the repository paths it
 * names in backticks. The links test holds every one of them to a file that exists, so a page never
 * sends a reader to a file that was moved, renamed or never committed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Folders that hold no documentation of ours: dependencies, builds, local data. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.data', 'release', 'coverage', 'test-output']);

/** The top-level folders a backticked path is read as a repository path from. */
const ROOTS = ['packages', 'examples', 'scripts', 'bench', 'docs'];

/** Every Markdown file under `root`, as paths relative to it. */
export function markdownFiles(root: string, dir = root): string[] {
  return readdirSync(join(dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(root, path);
    return entry.name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

/** The text outside fenced code blocks, where links and paths are prose, not code. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** One thing a page points at that is not there. */
export interface MissingTarget {
  file: string;
  target: string;
}

/** The relative link targets of a page, without their `#anchor` or `?query`. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (m) => m[1]!,
  );
  return targets
    .filter((target) => !/^(?:[a-z][a-z+.-]*:|#)/i.test(target))
    .map((target) => decodeURI(target.replace(/[#?].*$/, '')));
}

/** The repository paths a page names in backticks (`packages/core/src/...`), without patterns. */
export function backtickedPaths(markdown: string): string[] {
  const pattern = new RegExp(`\`((?:${ROOTS.join('|')})/[^\`\\s]*)\``, 'g');
  return [...prose(markdown).matchAll(pattern)]
    .map((m) => m[1]!.replace(/[#:].*$/, ''))
    .filter((path) => !/[*<>{}…|]/.test(path));
}

/** Every link or backticked path of the page at `file` (relative to `root`) that names nothing. */
export function missingTargets(root: string, file: string, markdown: string): MissingTarget[] {
  const links = relativeLinks(markdown).map((target) => ({
    target,
    path: join(root, dirname(file), target),
  }));
  const paths = backtickedPaths(markdown).map((target) => ({ target, path: join(root, target) }));
  return [...links, ...paths].filter(({ path }) => !existsSync(path)).map(({ target }) => ({ file, target }));
}
