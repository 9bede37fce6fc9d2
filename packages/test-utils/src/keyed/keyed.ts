/**
 * Tests keyed by name. A conformance suite registers its tests through {@link it}; a backend that
 * cannot meet one names it in its `skip` list with the reason, which shows in the report. A skip
 * with no reason, or naming no test of the suite, fails the suite, so the list cannot go stale.
 */
import { describe as vitestDescribe, it as vitestIt } from 'vitest';

/** Test name → why this backend skips it (a sentence, shown in the report). */
export type SkipList = Readonly<Record<string, string>>;

/** How a keyed suite registers with the test runner: vitest's `describe`, `it` and `it.skip`. */
export interface TestRunner {
  describe(title: string, body: () => void): void;
  it(name: string, fn: () => Promise<void> | void, timeout?: number): void;
  skip(name: string, fn: () => Promise<void> | void): void;
}

const VITEST: TestRunner = {
  describe: (title, body) => vitestDescribe(title, body),
  it: (name, fn, timeout) => vitestIt(name, fn, timeout),
  skip: (name, fn) => vitestIt.skip(name, fn),
};

interface Registry {
  suite: string;
  skip: SkipList;
  seen: Set<string>;
  runner: TestRunner;
}

let current: Registry | null = null;

/** Registers one test of the suite being described, unless the backend skips it by name. */
export function it(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  if (!current) throw new Error(`test "${name}" is registered outside a keyed suite`);
  if (current.seen.has(name)) throw new Error(`${current.suite}: two tests are named "${name}"`);
  current.seen.add(name);
  const reason = current.skip[name];
  if (reason === undefined) {
    current.runner.it(name, fn, timeout);
  } else {
    current.runner.skip(`${name} — skipped: ${reason}`, fn);
  }
}

/**
 * {@link it}, unless `missing` names what this machine lacks for the test (a tool outside Node):
 * then the test shows as skipped with that reason.
 */
export function itUnless(
  missing: string | null,
  name: string,
  fn: () => Promise<void> | void,
  timeout?: number,
): void {
  if (missing === null) {
    it(name, fn, timeout);
    return;
  }
  if (!current) throw new Error(`test "${name}" is registered outside a keyed suite`);
  current.seen.add(name);
  current.runner.skip(`${name} — skipped: ${missing}`, fn);
}

/** Runs `body` with `registry` as the suite tests register in. */
function within(registry: Registry | null, body: () => void): void {
  const outer = current;
  current = registry;
  try {
    body();
  } finally {
    current = outer;
  }
}

/**
 * A group inside a keyed suite. Vitest may collect a group's body after the enclosing body has
 * returned, so the group remembers its suite.
 */
export function describe(title: string, body: () => void): void {
  const registry = current;
  if (!registry) throw new Error(`group "${title}" is declared outside a keyed suite`);
  registry.runner.describe(title, () => within(registry, body));
}

/**
 * `describe(title, body)` whose tests are keyed by name: `body` registers them through {@link it}.
 * Every entry of `skip` must carry a reason and name a registered test.
 */
export function describeKeyed(title: string, skip: SkipList, body: () => void, runner = VITEST): void {
  checkSkipList(title, skip);
  runner.describe(title, () => {
    const registry: Registry = { suite: title, skip, seen: new Set(), runner };
    within(registry, body);
    checkSkipList(title, skip, registry.seen);
  });
}

/**
 * Throws unless every skip carries a reason (a sentence, not a word) and, once the suite's tests
 * are known (`registered`), names one of them.
 */
export function checkSkipList(title: string, skip: SkipList, registered?: ReadonlySet<string>): void {
  for (const [name, reason] of Object.entries(skip)) {
    if (reason.trim().length < 10) {
      throw new Error(`${title}: skipping "${name}" needs a written reason, got "${reason}"`);
    }
  }
  const unknown = registered ? Object.keys(skip).filter((name) => !registered.has(name)) : [];
  if (unknown.length > 0) {
    throw new Error(`${title}: the skip list names no such test: ${unknown.join(', ')}`);
  }
}
