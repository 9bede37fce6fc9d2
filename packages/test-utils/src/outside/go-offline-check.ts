/**
 * The outsider's offline check of Latchkey's evidence: `go-offline/main.go`, a Go program on Go's
 * own golang.org/x/mod/sumdb/note and tlog, reads only the files a test wrote (the pinned verifier
 * key, then C2SP tlog-proof files or NDJSON exports) and says whether each verifies. It is built
 * once per test process; its build cache lives under node_modules/.cache, so a later run links
 * without compiling. Needs Go and Debian's golang-golang-x-mod-dev (GOPATH mode, no network);
 * with CI=true their absence fails the caller instead of skipping it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const GOPATH = process.env['LATCHKEY_GOPATH'] ?? '/usr/share/gocode';

/** Why the Go check cannot run here, or null when it can; in CI, its absence throws instead. */
export function goOfflineMissing(): string | null {
  const go = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  const xMod = existsSync(join(GOPATH, 'src/golang.org/x/mod/sumdb/tlog/tlog.go'));
  if (go && xMod) return null;
  if (process.env['CI'] === 'true') {
    throw new Error(
      'The offline check needs Go and golang.org/x/mod (Debian: golang-go golang-golang-x-mod-dev).',
    );
  }
  return 'no Go toolchain with golang.org/x/mod here (Debian: golang-go golang-golang-x-mod-dev)';
}

/** One file's verdict. */
export interface GoOfflineVerdict {
  file: string;
  ok: boolean;
  error?: string;
  entries: number;
  tree_size: number;
  origin?: string;
}

let work: string | null = null;
let binary: string | null = null;

/** The process's own scratch folder (the binary, the key files), removed when it exits. */
function scratch(): string {
  if (work) return work;
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-go-offline-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  work = dir;
  return dir;
}

function build(): string {
  if (binary) return binary;
  const out = join(scratch(), 'go-offline');
  const cache = join(here, '..', '..', 'node_modules', '.cache', 'go-build');
  mkdirSync(cache, { recursive: true });
  const run = spawnSync('go', ['build', '-o', out, '.'], {
    cwd: join(here, 'go-offline'),
    env: { ...process.env, GO111MODULE: 'off', GOPATH, GOCACHE: cache, GOFLAGS: '' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`go build failed: ${run.stderr}`);
  binary = out;
  return out;
}

/**
 * Checks each file of `kind` (`tlog-proof` files or NDJSON `export`s) with the log's verifier key
 * `vkey`, which the program reads from a file of its own, as a pinned key would be kept.
 */
export function goOfflineCheck(
  vkey: string,
  kind: 'tlog-proof' | 'export',
  files: readonly string[],
): GoOfflineVerdict[] {
  const keyFile = join(mkdtempSync(join(scratch(), 'key-')), 'log.vkey');
  writeFileSync(keyFile, `${vkey}\n`);
  const run = spawnSync(build(), [keyFile, kind, ...files], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`go-offline failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as GoOfflineVerdict[];
}
