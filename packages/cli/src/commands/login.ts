/**
 * `latchkey login --workload IDENTITY`: a CI job becomes the workload identity for minutes. The
 * job's OIDC ID token (see `id-token-source.ts`) and the public half of an Ed25519 key pair made in
 * memory here go to `POST /workload-tokens`; the short-lived API token it answers, the device id and
 * the private key go to the session file (mode 0600, see `workload-session.ts`) for the job's later
 * `push`, `pull` and `push --propose`. Nothing goes to the config, and the ID token is kept nowhere.
 */
import { generateDeviceKeyPair } from '@latchkey/core/client';
import type { Command } from 'commander';
import { createContext, type GlobalOptions } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { checkServerUrl, createHttpClient } from '../http-client.js';
import { readIdToken } from '../id-token-source.js';
import { SESSION_VARIABLE, sessionFileOf, type WorkloadSession, writeSession } from '../workload-session.js';

interface LoginOptions {
  workload?: string;
  idTokenFile?: string;
  audience?: string;
  sessionFile?: string;
}

/** What `POST /workload-tokens` answers. */
interface Exchanged {
  token: string;
  expires_at: string;
  device_id: string;
  grants: WorkloadSession['grants'];
  actions: string[];
}

/** Registers `login`. */
export function registerLogin(program: Command): void {
  program
    .command('login')
    .description('Trade a CI job’s OIDC ID token for a short-lived workload session (token and device key)')
    .requiredOption('--workload <identity>', 'the workload identity (name or id) to act as')
    .option(
      '--id-token-file <file>',
      'read the ID token from a file (else LATCHKEY_ID_TOKEN, else GitHub Actions)',
    )
    .option(
      '--audience <audience>',
      "GitHub Actions: the identity's audience to ask for (env LATCHKEY_AUDIENCE)",
    )
    .option('--session-file <file>', `where to keep the session, mode 0600 (env ${SESSION_VARIABLE})`)
    .action(async (options: LoginOptions, command: Command) => {
      await login(options, command.optsWithGlobals<GlobalOptions>());
    });
}

async function login(options: LoginOptions, globals: GlobalOptions): Promise<void> {
  const ctx = createContext(globals);
  const sessionFile = sessionFileOf(options.sessionFile, process.env);
  if (!sessionFile) {
    throw new CliError(
      `Where should the session go? Give --session-file F or ${SESSION_VARIABLE} (a file outside the checkout; it is written with mode 0600).`,
      EXIT.usage,
    );
  }
  const identity = options.workload!;
  if (!ctx.settings.url) {
    throw new CliError('No server: give --url, LATCHKEY_URL, or `latchkey config set url …`.', EXIT.usage);
  }
  if (!ctx.settings.org) {
    throw new CliError(
      'No organization: give --org, LATCHKEY_ORG, or `latchkey config set org …`.',
      EXIT.usage,
    );
  }
  const url = checkServerUrl(ctx.settings.url);
  const { idToken, source } = await readIdToken(
    { idTokenFile: options.idTokenFile, audience: options.audience, limits: ctx.limits },
    process.env,
  );
  const pair = generateDeviceKeyPair();
  // No bearer: the ID token is the credential.
  const client = createHttpClient(url, undefined, ctx.limits);
  const answer = await client.json<Exchanged>('POST', '/workload-tokens', {
    organization: ctx.settings.org,
    identity,
    id_token: idToken,
    public_key: pair.publicKey,
  });
  const session: WorkloadSession = {
    kind: 'latchkey_workload_session',
    url: url.href,
    organization: ctx.settings.org,
    identity,
    device_id: answer.device_id,
    token: answer.token,
    private_key: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    expires_at: answer.expires_at,
    grants: answer.grants,
    actions: answer.actions,
  };
  const wider = writeSession(sessionFile, session);
  if (wider !== undefined) {
    ctx.out.warn(
      `warning: ${sessionFile} could be read by others (mode ${wider.toString(8)}); it was replaced by a file of mode 0600.`,
    );
  }
  const { token: _token, private_key: _key, kind: _kind, ...shown } = session;
  ctx.out.result({ ...shown, session_file: sessionFile }, () => {
    ctx.out.line(
      `Logged in as workload ${identity} of ${session.organization} (ID token from ${source}), device ${session.device_id}, until ${session.expires_at}.`,
    );
    ctx.out.line(
      `Actions: ${session.actions.join(', ')}; on ${session.grants.map((g) => `${g.project}/${g.environments.join(',')}`).join(' ')}.`,
    );
    ctx.out.line(`Session: ${sessionFile} (mode 0600; push and pull read it, the ID token is not kept).`);
  });
}
