/**
 * What every command starts from: its options merged from flags, the environment (`LATCHKEY_URL`,
 * `LATCHKEY_TOKEN`, `LATCHKEY_ORG`, `LATCHKEY_PROJECT`, `LATCHKEY_ENV`) and the config file, in that
 * order, and the HTTP client they make. The token comes from `--token-file F` (or stdin), `--token`
 * (with a warning), the environment or the config file (see `token-source.ts`). Every request is
 * bounded by `--timeout` and `--max-response-mb` (see `request-limits.ts`).
 */
import { ConfigStore, configDir, type Settings } from './config.js';
import { CliError, EXIT } from './exit-codes.js';
import { checkServerUrl, createHttpClient, type HttpClient } from './http-client.js';
import { createOutput, type Output } from './output.js';
import { type RequestLimits, requestLimits } from './request-limits.js';
import { readTokenFile, TOKEN_ARGUMENT_WARNING, TOKEN_SOURCES, takeTokenArgument } from './token-source.js';
import { readSession, sessionFileOf, type WorkloadSession } from './workload-session.js';

/** The global options, as commander gives them. */
export interface GlobalOptions extends Omit<Settings, 'token'> {
  json?: boolean;
  /** A file holding the API token, `-` for stdin. */
  tokenFile?: string;
  /** The API token itself; visible in `ps`, so it warns. */
  token?: string;
  /** Seconds a request may take (see `request-limits.ts`). */
  timeout?: string;
  /** MiB an answer may hold. */
  maxResponseMb?: string;
  /** A workload session file (`push`, `pull` and `login` only; else env LATCHKEY_SESSION_FILE). */
  sessionFile?: string;
}

/** A workload session read from its file. */
export interface OpenSession {
  file: string;
  session: WorkloadSession;
}

export interface CommandContext {
  config: ConfigStore;
  out: Output;
  settings: Settings;
  /** The time and size bounds of every request. */
  limits: RequestLimits;
  /**
   * The server (checked), the client, and the organization: what a command that calls the API
   * needs. With `workload`, a session file when one is named (see {@link CommandContext.session}).
   */
  connect(options?: { workload?: boolean }): { url: URL; client: HttpClient; org: string };
  /**
   * The workload session `--session-file` or `LATCHKEY_SESSION_FILE` names, checked (the owner's
   * only, not expired), or undefined when none is named. When named, it is used instead of any token.
   */
  session(): OpenSession | undefined;
  /** `--project` and `--env`, or a usage error naming what is missing. */
  scope(): { project: string; env: string };
}

export function createContext(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const config = new ConfigStore(configDir(env));
  const file = config.settings();
  // An empty environment variable counts as unset, as shells leave them.
  const pick = (key: Exclude<keyof Settings, 'token'>, variable: string) =>
    options[key] ?? (env[variable] || undefined) ?? file[key];
  const out = createOutput(options.json === true);
  const sessionFile = sessionFileOf(options.sessionFile, env);
  let opened: OpenSession | undefined;
  const session = () => {
    if (sessionFile && !opened) opened = { file: sessionFile, session: readSession(sessionFile) };
    return opened;
  };
  const argument = takeTokenArgument(options.token, env);
  if (argument !== undefined && !options.tokenFile) out.warn(TOKEN_ARGUMENT_WARNING);
  const settings: Settings = {
    url: pick('url', 'LATCHKEY_URL'),
    token: options.tokenFile
      ? readTokenFile(options.tokenFile)
      : (argument ?? (env['LATCHKEY_TOKEN'] || undefined) ?? file.token),
    org: pick('org', 'LATCHKEY_ORG'),
    project: pick('project', 'LATCHKEY_PROJECT'),
    env: pick('env', 'LATCHKEY_ENV'),
  };
  return {
    config,
    out,
    settings,
    // Read when a request is made: a command that sends none never fails on a bad --timeout.
    get limits() {
      return requestLimits(options, env);
    },
    session,
    connect(connectOptions = {}) {
      const open = connectOptions.workload ? session() : undefined;
      if (open) return connectSession(open, settings, requestLimits(options, env));
      if (!settings.url)
        throw new CliError(
          'No server: give --url, LATCHKEY_URL, or `latchkey config set url …`.',
          EXIT.usage,
        );
      if (!settings.token) {
        throw new CliError(`No API token: ${TOKEN_SOURCES}.`, EXIT.usage);
      }
      if (!settings.org)
        throw new CliError(
          'No organization: give --org, LATCHKEY_ORG, or `latchkey config set org …`.',
          EXIT.usage,
        );
      const url = checkServerUrl(settings.url);
      return {
        url,
        client: createHttpClient(url, settings.token, requestLimits(options, env)),
        org: settings.org,
      };
    },
    scope() {
      const missing = [!settings.project && '--project', !settings.env && '--env'].filter(Boolean);
      if (missing.length > 0) throw new CliError(`This command needs ${missing.join(' and ')}.`, EXIT.usage);
      return { project: settings.project!, env: settings.env! };
    },
  };
}

/** The session's server and organization (flags naming others are refused) and a client with its token. */
function connectSession(open: OpenSession, settings: Settings, limits: RequestLimits) {
  const { session, file } = open;
  const url = checkServerUrl(session.url);
  if (settings.url && checkServerUrl(settings.url).href !== url.href) {
    throw new CliError(
      `The session in ${file} is for ${session.url}, not ${settings.url}: log in to that server.`,
      EXIT.usage,
    );
  }
  if (settings.org && settings.org !== session.organization) {
    throw new CliError(
      `The session in ${file} is for the organization ${session.organization}, not ${settings.org}.`,
      EXIT.usage,
    );
  }
  return { url, client: createHttpClient(url, session.token, limits), org: session.organization };
}

/** A path segment, escaped. */
export const seg = (value: string) => encodeURIComponent(value);
