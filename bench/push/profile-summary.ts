/**
 * Summarises a V8 `.cpuprofile` (from `pnpm bench:push --profile dir`): where a server's CPU time
 * goes, as self time per function and inclusive time per function, in percent of all samples.
 *
 *   tsx bench/push/profile-summary.ts <file.cpuprofile> [--top 25] [--match name1,name2]
 *
 * `--match` prints the inclusive share of the named functions only (e.g. `handle,safeParse,verify`);
 * `--under fn` counts only the samples with `fn` on the stack; `--us N` (the server's CPU µs per
 * request, as run.ts prints it) turns shares into µs per request.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
}

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    match: { type: 'string' },
    under: { type: 'string' },
    us: { type: 'string' },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [--top N] [--match a,b]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? shortUrl(url) : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
};

const IDLE = '(idle)';
const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
const special = profile.nodes
  .filter((n) => ['(program)', '(garbage collector)'].includes(n.callFrame.functionName))
  .map((n) => [n.callFrame.functionName, n.hitCount ?? 0] as const);
const onStack = (node: ProfileNode, name: string) => {
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    if (byId.get(id)!.callFrame.functionName === name) return true;
  }
  return false;
};
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0 || node.callFrame.functionName === IDLE) continue;
  busy += hits;
  if (args.under && !onStack(node, args.under)) continue;
  self.set(label(node), (self.get(label(node)) ?? 0) + hits);
  // Inclusive: credit every distinct function on the stack once.
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
    const name = label(byId.get(id)!);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + hits);
  }
}

const usPerRequest = args.us === undefined ? undefined : Number(args.us);
const pct = (hits: number) =>
  usPerRequest === undefined
    ? `${((hits / busy) * 100).toFixed(1).padStart(5)}%`
    : `${((hits / busy) * usPerRequest).toFixed(1).padStart(6)} µs`;
console.log(
  `${file}: ${total} samples, ${busy} not idle; figures are ${usPerRequest === undefined ? 'shares of the non-idle samples' : 'µs per request'}` +
    (args.under ? `, only under ${args.under}` : ''),
);
for (const [name, hits] of special) console.log(`  ${name}: ${pct(hits)}`);

const top = Number(args.top);
const match = args.match?.split(',').map((s) => s.trim());
if (match) {
  console.log('\ninclusive, matching:');
  for (const [name, hits] of [...inclusive].sort((a, b) => b[1] - a[1])) {
    if (match.some((m) => name.split(' ')[0] === m)) console.log(`  ${pct(hits)}  ${name}`);
  }
} else {
  console.log('\nself time:');
  for (const [name, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(hits)}  ${name}`);
  }
  console.log('\ninclusive time:');
  for (const [name, hits] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(hits)}  ${name}`);
  }
}

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const store = path.indexOf('/node_modules/.pnpm/');
  if (store !== -1) return path.slice(store + '/node_modules/.pnpm/'.length).replace(/\/node_modules\//, ':');
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}
