/**
 * A workload session: what `latchkey login --workload` keeps for the later steps of one CI job, in
 * the file `--session-file` (or `LATCHKEY_SESSION_FILE`) names, never in the config: the
 * short-lived API token, the ephemeral device's id and private key (made in memory for this job),
 * the expiry, and the server and organization they belong to. Never the ID token it was traded
 * for. The file is written with mode 0600 (a wider file there is replaced by one of mode 0600), and
 * one that others may read is refused: whoever reads it may push as the workload until it expires.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writePrivateJson } from './config.js';
import { CliError, EXIT } from './exit-codes.js';

/** The variable that names the session file when `--session-file` does not. */
export const SESSION_VARIABLE = 'LATCHKEY_SESSION_FILE';

/** What the session file holds. */
export interface WorkloadSession {
  kind: 'latchkey_workload_session';
  /** The server, as checked (`https://…/`, or http on loopback). */
  url: string;
  organization: string;
  identity: string;
  device_id: string;
  token: string;
  /** The ephemeral device's private key, PKCS#8 PEM. */
  private_key: string;
  expires_at: string;
  grants: { project: string; environments: string[] }[];
  actions: string[];
}

/** The session file named by the flag, else the environment (an empty variable counts as unset). */
export function sessionFileOf(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return flag ?? (env[SESSION_VARIABLE] || undefined);
}

/** Whether group or others may do anything with the file (POSIX modes only). */
const widerThanOwner = (mode: number) => process.platform !== 'win32' && (mode & 0o077) !== 0;

/**
 * Writes the session, mode 0600, through a file renamed over the old one. Returns the old file's
 * mode when it was wider than 0600 (it is replaced: the new file is the owner's only).
 */
export function writeSession(path: string, session: WorkloadSession): number | undefined {
  let wider: number | undefined;
  if (existsSync(path)) {
    const stat = statSync(path);
    if (!stat.isFile()) throw new CliError(`The session file ${path} is not a file.`, EXIT.usage);
    if (widerThanOwner(stat.mode)) wider = stat.mode & 0o777;
  }
  writePrivateJson(path, session);
  return wider;
}

/** The session in `path`, checked: the owner's only, whole, and not expired at `nowMs`. */
export function readSession(path: string, nowMs = Date.now()): WorkloadSession {
  let text: string;
  try {
    const stat = statSync(path);
    if (widerThanOwner(stat.mode)) {
      throw new CliError(
        `The session file ${path} may be read by others (mode ${(stat.mode & 0o777).toString(8)}): refusing it. ` +
          'Log in again with `latchkey login --workload …`, which writes it with mode 0600.',
        EXIT.refused,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `Cannot read the session file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} ` +
        '(run `latchkey login --workload …` first).',
    );
  }
  const session = parseSession(text, path);
  if (!(Date.parse(session.expires_at) > nowMs)) {
    throw new CliError(
      `The workload session in ${path} expired at ${session.expires_at}: log in again with \`latchkey login --workload ${session.identity}\`.`,
      EXIT.refused,
    );
  }
  return session;
}

function parseSession(text: string, path: string): WorkloadSession {
  let value: Partial<WorkloadSession>;
  try {
    value = JSON.parse(text) as Partial<WorkloadSession>;
  } catch {
    value = {};
  }
  const strings = ['url', 'organization', 'identity', 'device_id', 'token', 'private_key', 'expires_at'];
  const whole =
    value?.kind === 'latchkey_workload_session' &&
    strings.every((name) => typeof value[name as keyof WorkloadSession] === 'string') &&
    Number.isFinite(Date.parse(value.expires_at!));
  if (!whole) {
    throw new CliError(
      `${path} is not a workload session file (run \`latchkey login --workload …\` to write one).`,
    );
  }
  return value as WorkloadSession;
}

/** The session's device key. */
export function sessionKey(session: WorkloadSession, path: string): KeyObject {
  try {
    return createPrivateKey(session.private_key);
  } catch (error) {
    throw new CliError(
      `The device key in the session file ${path} is unreadable: ${(error as Error).message}`,
    );
  }
}
