/**
 * The bounds every request of the CLI runs under, so a server that hangs or answers without end
 * cannot hold the CLI or fill its memory: an overall time per request (`--timeout` seconds, env
 * `LATCHKEY_TIMEOUT`, default 60) and the most bytes read of one answer (`--max-response-mb`, env
 * `LATCHKEY_MAX_RESPONSE_MB`, default 64). Downloads written to a file as they arrive (a backup, an
 * export) are not held in memory: for them the time bounds the wait between two pieces instead.
 */
import { CliError, EXIT } from './exit-codes.js';

/** What {@link requestLimits} gives the HTTP client. */
export interface RequestLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Default overall time of one request, in seconds. */
const DEFAULT_TIMEOUT_SECONDS = 60;
/** Default most bytes of one answer, in MiB. */
const DEFAULT_MAX_RESPONSE_MB = 64;

/** A positive number of `unit` from a flag or the environment, or a usage error naming where it came from. */
function positive(raw: string | undefined, fallback: number, source: string, unit: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !Number.isFinite(value) || value <= 0) {
    throw new CliError(`${source} must be a positive number of ${unit}, not "${raw}".`, EXIT.usage);
  }
  return value;
}

/** The limits from the flags, else the environment (an empty variable counts as unset), else the defaults. */
export function requestLimits(
  options: { timeout?: string; maxResponseMb?: string },
  env: NodeJS.ProcessEnv,
): RequestLimits {
  const pick = (flag: string | undefined, flagName: string, variable: string) =>
    flag !== undefined
      ? { raw: flag, source: flagName }
      : { raw: env[variable] || undefined, source: variable };
  const timeout = pick(options.timeout, '--timeout', 'LATCHKEY_TIMEOUT');
  const size = pick(options.maxResponseMb, '--max-response-mb', 'LATCHKEY_MAX_RESPONSE_MB');
  const seconds = positive(timeout.raw, DEFAULT_TIMEOUT_SECONDS, timeout.source, 'seconds');
  const mb = positive(size.raw, DEFAULT_MAX_RESPONSE_MB, size.source, 'MiB');
  return { timeoutMs: Math.ceil(seconds * 1000), maxResponseBytes: Math.floor(mb * 1_048_576) };
}

/** The limits when nothing is given. */
export const DEFAULT_LIMITS: RequestLimits = requestLimits({}, {});
