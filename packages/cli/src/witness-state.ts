/**
 * What `latchkey activity witness` remembers: per server and organization, the log's verifier key
 * it pinned and the last tree head it verified (size, root hash, and the note it came in). Kept in
 * `witness.json` in the configuration directory, written whole through a renamed temporary file
 * (mode 0600), so a crash leaves the previous head or the new one, never half of either.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateJson } from './config.js';
import { CliError } from './exit-codes.js';

/** The last verified tree head of one organization's log. */
export interface WitnessedHead {
  /** The log's C2SP verifier key, pinned on first use (or given with `--verifier-key`). */
  verifier_key: string;
  tree_size: number;
  /** The RFC 6962 root hash, standard base64. */
  root_hash: string;
  /** The checkpoint note that carried this head. */
  note: string;
  /** When it was verified, RFC 3339. */
  seen_at: string;
}

const FILE = 'witness.json';

const key = (url: string, org: string) => `${url.replace(/\/+$/, '')} ${org}`;

function readAll(dir: string): Record<string, WitnessedHead> {
  const path = join(dir, FILE);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, WitnessedHead>;
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The head last verified for `org` on the server at `url`, if any. */
export function witnessedHead(dir: string, url: string, org: string): WitnessedHead | undefined {
  return readAll(dir)[key(url, org)];
}

/** Records `head` as the last verified head of `org` on the server at `url`. */
export function recordWitnessedHead(dir: string, url: string, org: string, head: WitnessedHead): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const all = readAll(dir);
  all[key(url, org)] = head;
  writePrivateJson(join(dir, FILE), all);
}
