/**
 * What a Markdown file of the repository points at: its relative links, their `#anchors` and the
 * repository paths it names in backticks. The links test holds every one of them to a file (and a
 * heading) that exists, so a page never sends a reader to a file that was moved, renamed or never
 * committed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/** The link targets of a page that stay in the repository (`path`, `path#anchor`, `#anchor`). */
function localTargets(markdown: string): string[] {
  const links = prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g);
  return [...links].map((m) => m[1]!).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The relative link targets of a page, without their `#anchor` or `?query`. */
export function relativeLinks(markdown: string): string[] {
  return localTargets(markdown)
    .filter((target) => !target.startsWith('#'))
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

/**
 * The anchors of a page's headings, as GitHub makes them: the heading's text (a link by its label),
 * lower-cased, with anything but letters, digits, spaces, `-` and `_` dropped and each space a `-`;
 * a repeated anchor gets `-1`, `-2`, ….
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*$/gm)) {
    const base = match[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The Markdown file a link target names: itself, or a folder's README. */
function markdownOf(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (statSync(path).isDirectory()) {
    const readme = join(path, 'README.md');
    return existsSync(readme) ? readme : undefined;
  }
  return path.endsWith('.md') ? path : undefined;
}

/** The `#anchor` links of the page at `file` that name no heading of the page they point into. */
export function missingAnchors(root: string, file: string, markdown: string): MissingTarget[] {
  return localTargets(markdown).flatMap((target) => {
    const [path = '', anchor] = target.split('#');
    if (!anchor) return [];
    const page = path === '' ? undefined : markdownOf(join(root, dirname(file), decodeURI(path)));
    if (path !== '' && !page) return [];
    const text = page ? readFileSync(page, 'utf8') : markdown;
    return headingAnchors(text).has(decodeURIComponent(anchor)) ? [] : [{ file, target }];
  });
}
