/**
 * The CLI's configuration directory: `config.json` (url, token, org, project, env: what flags and
 * the environment may also give) and `state.json` (per server and organization: the enrolled device
 * and the versions `pull` saw, with the hashes of what it wrote), both written with mode 0600 in a directory of mode 0700, since the
 * first holds a token and the second names the device key. `LATCHKEY_CONFIG_DIR` moves it.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './exit-codes.js';

/** Settings a user may keep instead of passing flags. */
export interface Settings {
  url?: string;
  token?: string;
  org?: string;
  project?: string;
  env?: string;
}

export const SETTING_KEYS = ['url', 'token', 'org', 'project', 'env'] as const;

/** What the CLI remembers about one organization on one server. */
export interface OrganizationState {
  device?: { id: string; keyFile: string; name: string };
  /** `project/env` → key → what `pull` (or a successful `push`) saw (see `base-versions.ts`). */
  versions?: Record<string, Record<string, { version: number; value: string }>>;
  /** `project/env` → file → the keyed hashes of what `pull` or `push` left in it (see `pull-record.ts`). */
  pulled?: Record<string, Record<string, { salt: string; values: Record<string, string | null> }>>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['LATCHKEY_CONFIG_DIR']) return env['LATCHKEY_CONFIG_DIR'];
  const base = env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
  return join(base, 'latchkey');
}

function readJson<T>(path: string, fallback: T): T {
  if (!existsSync(path)) return fallback;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * Writes `text` to `path`, mode 0600, through a temporary file beside it renamed over it, so a crash
 * never leaves half a file: the path holds the old content or the new, whole. A symbolic link is
 * followed, as a plain write would: the file it points to is replaced, the link stays.
 */
export function writePrivateFile(path: string, text: string): void {
  const target = existsSync(path) ? realpathSync(path) : path;
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Writes `value` as JSON, mode 0600, through a temporary file so a crash never leaves half a file. */
export function writePrivateJson(path: string, value: unknown): void {
  writePrivateFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The configuration directory's two files. */
export class ConfigStore {
  constructor(readonly dir: string) {}

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  settings(): Settings {
    return readJson<Settings>(join(this.dir, 'config.json'), {});
  }

  saveSettings(settings: Settings): void {
    this.ensureDir();
    writePrivateJson(join(this.dir, 'config.json'), settings);
  }

  /** The state of `org` on the server at `url`. */
  state(url: string, org: string): OrganizationState {
    return (
      readJson<Record<string, OrganizationState>>(join(this.dir, 'state.json'), {})[stateKey(url, org)] ?? {}
    );
  }

  updateState(url: string, org: string, update: (state: OrganizationState) => void): void {
    this.ensureDir();
    const path = join(this.dir, 'state.json');
    const all = readJson<Record<string, OrganizationState>>(path, {});
    const state = all[stateKey(url, org)] ?? {};
    update(state);
    all[stateKey(url, org)] = state;
    writePrivateJson(path, all);
  }

  /** Where device keys go by default. */
  keysDir(): string {
    const dir = join(this.dir, 'keys');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }
}

function stateKey(url: string, org: string): string {
  return `${url.replace(/\/+$/, '')} ${org}`;
}
