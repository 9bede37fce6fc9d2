/**
 * Where `latchkey login --workload` gets the job's OIDC ID token: `--id-token-file F`, else
 * `LATCHKEY_ID_TOKEN` (what a GitLab job's `id_tokens:` sets), else GitHub Actions' own request
 * (`ACTIONS_ID_TOKEN_REQUEST_URL` with `ACTIONS_ID_TOKEN_REQUEST_TOKEN`, which a job with
 * `permissions: id-token: write` has), asking for the audience `--audience` (or
 * `LATCHKEY_AUDIENCE`) names. The audience is given, not looked up: it is the workload identity's,
 * configured on the server, and no route tells it to a caller who is not yet anyone. Neither the ID
 * token nor the request token is ever printed.
 */
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './exit-codes.js';
import { parseAnswer, type RequestLabel, readBounded, requestFailure } from './http-answer.js';
import { isLoopbackHost } from './http-client.js';
import type { RequestLimits } from './request-limits.js';

/** The ways to give an ID token, for messages. */
const ID_TOKEN_SOURCES =
  'give --id-token-file F, set LATCHKEY_ID_TOKEN (GitLab: `id_tokens:`), or run in GitHub Actions with `permissions: id-token: write`';

/** A JWT's shape: three base64url parts (its checks are the server's). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function checkIdToken(text: string, where: string): string {
  const token = text.trim();
  if (!JWT_SHAPE.test(token)) {
    throw new CliError(`${where} does not hold an ID token (a JWT: three base64url parts).`, EXIT.usage);
  }
  return token;
}

/** What the ID token is read with. */
export interface IdTokenOptions {
  idTokenFile?: string;
  audience?: string;
  limits: RequestLimits;
}

/** The ID token, and where it came from (for the message). */
export async function readIdToken(
  options: IdTokenOptions,
  env: NodeJS.ProcessEnv,
): Promise<{ idToken: string; source: string }> {
  if (options.idTokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.idTokenFile, 'utf8');
    } catch (error) {
      throw new CliError(
        `Cannot read the ID token file ${options.idTokenFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    return { idToken: checkIdToken(text, options.idTokenFile), source: options.idTokenFile };
  }
  if (env['LATCHKEY_ID_TOKEN']) {
    return {
      idToken: checkIdToken(env['LATCHKEY_ID_TOKEN'], 'LATCHKEY_ID_TOKEN'),
      source: 'LATCHKEY_ID_TOKEN',
    };
  }
  const requestUrl = env['ACTIONS_ID_TOKEN_REQUEST_URL'];
  const requestToken = env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'];
  if (requestUrl && requestToken) {
    const audience = options.audience ?? (env['LATCHKEY_AUDIENCE'] || undefined);
    if (!audience) {
      throw new CliError(
        "GitHub Actions issues an ID token for the audience asked for: give --audience (or LATCHKEY_AUDIENCE), the workload identity's audience.",
        EXIT.usage,
      );
    }
    const idToken = await requestGitHubIdToken(requestUrl, requestToken, audience, options.limits);
    return { idToken, source: 'GitHub Actions' };
  }
  if (requestUrl || requestToken) {
    throw new CliError(
      'GitHub Actions gives ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN together, to a job with `permissions: id-token: write`: only one is set.',
      EXIT.usage,
    );
  }
  throw new CliError(`No ID token: ${ID_TOKEN_SOURCES}.`, EXIT.usage);
}

/** GitHub's token endpoint: https (http only on loopback, where nothing leaves the machine). */
function checkRequestUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError('ACTIONS_ID_TOKEN_REQUEST_URL is not a URL.', EXIT.usage);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url;
  throw new CliError(`ACTIONS_ID_TOKEN_REQUEST_URL must be https (got ${url.protocol}).`, EXIT.usage);
}

/** `GET <request URL>&audience=…` with the job's request token; the answer is `{value}`. */
async function requestGitHubIdToken(
  rawUrl: string,
  requestToken: string,
  audience: string,
  limits: RequestLimits,
): Promise<string> {
  const url = checkRequestUrl(rawUrl);
  url.searchParams.set('audience', audience);
  const label: RequestLabel = { origin: url.origin, what: 'the GitHub Actions ID token request' };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let text: string;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `bearer ${requestToken}`, accept: 'application/json' },
      redirect: 'error',
      signal: controller.signal,
    });
    text = await readBounded(response, limits.maxResponseBytes, label);
  } catch (error) {
    throw requestFailure(error, label, {
      timedOut: controller.signal.aborted,
      reading: false,
      timeoutMs: limits.timeoutMs,
    });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    throw new CliError(
      `GitHub Actions refused the ID token request (HTTP ${response.status}): does the job have \`permissions: id-token: write\`?`,
      EXIT.refused,
    );
  }
  const value = (parseAnswer(text, label) as { value?: unknown } | null)?.value;
  if (typeof value !== 'string')
    throw new CliError('GitHub Actions answered the ID token request without a value.');
  return checkIdToken(value, 'The GitHub Actions answer');
}
