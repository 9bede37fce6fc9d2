/** The summary of a push benchmark: medians per server, the table, the goals, and RESULTS.md. */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Framework, Variant } from './protocol.js';

/** One measured slice of one server. */
export interface RunRecord {
  framework: Framework;
  variant: Variant;
  /** The cycle the slice belongs to. */
  cycle: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per successful request, in microseconds. */
  serverCpuUsPerRequest: number;
  /** Server CPU over the window, in percent of one core. */
  serverCpuPercent: number;
  loadCpuPercent: number;
  /** CPU used by every other process of the machine during the window, in percent of one core. */
  othersCpuPercent: number;
  errors: number;
}

/** The measures of a slice whose median over the slices summarizes a server. */
const MEDIAN_FIELDS = [
  'rps',
  'p50Ms',
  'p99Ms',
  'serverCpuUsPerRequest',
  'serverCpuPercent',
  'loadCpuPercent',
] as const;
type MedianField = (typeof MEDIAN_FIELDS)[number];

/** The medians of one server over its slices, its errors summed, and how many slices there were. */
export type ServerSummary = Pick<RunRecord, MedianField | 'errors'> & { slices: number };

/** The goals: adapter/bare at least this, and adapter/fastest adapter at least that. */
export const GOALS = { ofBare: 0.6, ofFastestAdapter: 0.8 } as const;

/** Medians of every server's slices; errors are summed. */
export function summarize(records: readonly RunRecord[]): Map<string, ServerSummary> {
  const groups = new Map<string, RunRecord[]>();
  for (const record of records) {
    const key = `${record.framework}/${record.variant}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const out = new Map<string, ServerSummary>();
  for (const [key, runs] of groups) {
    const medians = Object.fromEntries(MEDIAN_FIELDS.map((f) => [f, median(runs.map((r) => r[f]))]));
    out.set(key, {
      ...(medians as Pick<RunRecord, MedianField>),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      slices: runs.length,
    });
  }
  return out;
}

/** The table and goal verdicts as Markdown lines. */
export function renderTable(frameworks: readonly Framework[], summary: Map<string, ServerSummary>): string[] {
  const adapters = frameworks.map((f) => summary.get(`${f}/adapter`)?.rps ?? 0);
  const fastest = Math.max(0, ...adapters);
  const lines = [
    '| framework | bare route req/s | adapter req/s | adapter/bare | adapter/fastest adapter | bare p50/p99 ms | adapter p50/p99 ms | server CPU µs/req bare → adapter |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const verdicts: string[] = [];
  for (const framework of frameworks) {
    const bare = summary.get(`${framework}/bare`);
    const adapter = summary.get(`${framework}/adapter`);
    const ofBare = bare && adapter ? adapter.rps / bare.rps : undefined;
    const ofFastest = adapter && fastest > 0 ? adapter.rps / fastest : undefined;
    lines.push(
      `| ${framework} | ${int(bare?.rps)} | ${int(adapter?.rps)} | ${ratio(ofBare)} | ${ratio(ofFastest)} | ${latency(bare)} | ${latency(adapter)} | ${int(bare?.serverCpuUsPerRequest)} → ${int(adapter?.serverCpuUsPerRequest)} |`,
    );
    if (ofBare !== undefined) {
      verdicts.push(
        `- ${framework}: adapter/bare ${ratio(ofBare)} ${ofBare >= GOALS.ofBare ? 'meets' : 'MISSES'} the ${GOALS.ofBare}x goal; ` +
          `adapter/fastest ${ratio(ofFastest)} ${(ofFastest ?? 0) >= GOALS.ofFastestAdapter ? 'meets' : 'MISSES'} the ${GOALS.ofFastestAdapter}x goal.`,
      );
    } else {
      verdicts.push(`- ${framework}: no adapter measured.`);
    }
  }
  return [...lines, '', ...verdicts];
}

/** The machine line of a report. */
export function machine(): string {
  let cpu = 'unknown CPU';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: the model stays unknown.
  }
  return `${availableParallelism()} cores (nproc), ${cpu}, Node ${process.version}`;
}

/** The commit measured, and whether packages/ differed from it. */
export function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'packages') !== '';
    return dirty ? `${commit} with uncommitted changes in packages/` : commit;
  } catch {
    return 'unknown commit';
  }
}

/** A section of RESULTS.md that a benchmark owns: its heading, and the markers around its table. */
export interface ResultsSection {
  /** Names the markers: `<!-- id:results:start -->`. */
  id: string;
  /** The `## heading` the block goes under when the markers are not there yet. */
  heading: string;
}

/**
 * Writes `block` into its section of RESULTS.md (by default `## Push`), between its markers, keeping
 * every other section and any notes written around the markers.
 */
export function writeResults(
  file: string,
  block: string,
  section: ResultsSection = { id: 'push', heading: 'Push' },
): void {
  const START = `<!-- ${section.id}:results:start -->`;
  const END = `<!-- ${section.id}:results:end -->`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Benchmarks\n';
  }
  const marked = `${START}\n${block.trim()}\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start !== -1 && end > start) {
    text = text.slice(0, start) + marked + text.slice(end + END.length);
  } else {
    const heading = new RegExp(`^## ${section.heading}\\s*$`, 'm').exec(text);
    if (heading) {
      const at = heading.index + heading[0].length;
      text = `${text.slice(0, at)}\n\n${marked}\n${text.slice(at)}`;
    } else {
      text = `${text.trimEnd()}\n\n## ${section.heading}\n\n${marked}\n`;
    }
  }
  writeFileSync(file, text);
  // Lay the table out the way the project's formatter does, so `pnpm lint` stays green.
  execFileSync('pnpm', ['exec', 'biome', 'format', '--write', file], { stdio: 'ignore' });
}

/** Prints a benchmark's block and, with `write`, records it in its section of bench/RESULTS.md. */
export function publishResults(block: string, section: ResultsSection, write: boolean): void {
  console.log(`\n${block}\n`);
  if (write) writeResults(join(import.meta.dirname, '..', 'RESULTS.md'), block, section);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function int(value: number | undefined): string {
  return value === undefined ? '–' : Math.round(value).toLocaleString('en-US');
}

function ratio(value: number | undefined): string {
  return value === undefined ? '–' : `${value.toFixed(2)}x`;
}

function latency(summary: ServerSummary | undefined): string {
  return summary ? `${summary.p50Ms.toFixed(1)} / ${summary.p99Ms.toFixed(1)}` : '–';
}
