/**
 * The GitHub Actions workflow and the GitLab CI job of `docs/ci-without-stored-keys.md`, run as
 * their runners would run them, against the Express example trusting a test OIDC issuer on
 * loopback HTTPS (`LATCHKEY_TRUSTED_ISSUERS`, `NODE_EXTRA_CA_CERTS`), with the page's own trust
 * rules as the workload identities. The test plays the runner: for GitHub, a token endpoint on
 * loopback that checks the job's request token and the audience asked for and answers an ID token
 * the issuer signed; for GitLab, the ID token in the variable `id_tokens:` names. Each job logs in,
 * pulls, changes a key and pushes strict as the workload; its session file is 0600 and holds no
 * part of the ID token, and nothing of the session reaches the config directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startTestIssuer, type TestIssuer } from '@latchkey/test-utils/oidc-issuer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliOnPath, type IdentityRule, installs, pipelines, runStep, trustRules } from './ci-doc.js';
import { useCliServer } from './cli-harness.js';

const ENV = '/organizations/acme/projects/web/environments/prod';

/** Every file under `dir`, as text. */
const textsUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));

describe('the CI jobs of the docs, against a real server', () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await startTestIssuer('localhost');
  });
  afterAll(async () => issuer?.close());
  const { machine, api, work, url, serverOutput } = useCliServer(() => ({
    LATCHKEY_TRUSTED_ISSUERS: issuer.issuer,
    NODE_EXTRA_CA_CERTS: issuer.caFile,
  }));
  const bin = () => cliOnPath(join(work, 'bin'));
  const rules = trustRules();
  const jobs = pipelines();

  /** Creates the page's rule, with the test issuer in the platform's place. */
  const createIdentity = async (rule: IdentityRule) => {
    const created = await api('POST', '/organizations/acme/workload-identities', {
      ...rule,
      issuer: issuer.issuer,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return created.json['id'] as string;
  };

  /** The job's environment: the page's, the server under test in place of its example URL. */
  const jobEnv = (doc: Record<string, string>, runner: Record<string, string>): Record<string, string> => {
    expect(doc['LATCHKEY_URL']).toMatch(/^https:\/\//);
    const env: Record<string, string> = { ...runner };
    for (const [name, value] of Object.entries(doc)) {
      const filled = value.replace(/\$\{\{ runner\.temp \}\}/g, runner['RUNNER_TEMP'] ?? '');
      expect(filled, `${name} uses only what the test fills in`).not.toMatch(/\$\{\{/);
      env[name] = filled;
    }
    return { ...env, LATCHKEY_URL: url(), LATCHKEY_CONFIG_DIR: join(runner['HOME']!, 'config') };
  };

  /** What the job leaves: the value it pushed, by whom, and a session file without the ID token. */
  const expectPushedAsWorkload = async (identityId: string, sha: string, session: string, jwt: string) => {
    const { json } = await api('GET', `${ENV}/secrets`);
    const secrets = json['secrets'] as { key: string; value: string }[];
    expect(secrets.find((s) => s.key === 'DEPLOYED_SHA')?.value).toBe(sha);
    expect(secrets.find((s) => s.key === 'DB_URL')?.value).toBe('one');
    const { json: history } = await api('GET', `${ENV}/history?limit=5`);
    const pushed = (history['events'] as { type: string; actor: unknown }[]).find(
      (e) => e.type === 'push_applied',
    );
    expect(pushed?.actor).toEqual({ type: 'workload', id: identityId });
    expect(statSync(session).mode & 0o777).toBe(0o600);
    const text = readFileSync(session, 'utf8');
    expect(text).not.toContain(jwt);
    for (const part of jwt.split('.')) expect(text).not.toContain(part);
    const { token } = JSON.parse(text) as { token: string };
    // Nor does the server's log hold any of them.
    for (const secret of [token, ...jwt.split('.')]) expect(serverOutput()).not.toContain(secret);
    return { token };
  };

  beforeAll(async () => {
    const admin = machine('admin');
    expect((await admin('device', 'enroll', '--name', 'admin-laptop')).code).toBe(0);
    writeFileSync(join(work, 'seed.env'), 'DB_URL=one\n');
    expect((await admin('push', 'seed.env')).code).toBe(0);
  });

  it('runs the GitHub Actions workflow: the job asks its token endpoint for the audience and pushes', async () => {
    const job = Object.values(jobs.github.jobs)[0]!;
    expect(jobs.github.permissions['id-token']).toBe('write');
    const identityId = await createIdentity(rules.github);
    const requestToken = 'ghs_runner_request_token_for_this_job';
    const asked: { authorization?: string; audience: string | null }[] = [];
    let minted = '';
    const endpoint: Server = createServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://runner').searchParams;
      asked.push({ authorization: request.headers.authorization, audience: query.get('audience') });
      if (request.headers.authorization !== `bearer ${requestToken}` || query.get('api-version') !== '2.0') {
        response.writeHead(401).end();
        return;
      }
      const { subject, claims } = rules.github;
      void issuer.sign({ aud: query.get('audience'), sub: subject, ...claims }).then((jwt) => {
        minted = jwt;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value: jwt }));
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const home = mkdtempSync(join(work, 'github-'));
      const runnerTemp = join(home, 'runner-temp');
      mkdirSync(runnerTemp);
      const sha = '3f1c0de5a7b9e2d4c6f8a0b1c2d3e4f5a6b7c8d9';
      const env = jobEnv(job.env, {
        HOME: home,
        RUNNER_TEMP: runnerTemp,
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: sha,
        ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token?api-version=2.0`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
      });
      const steps = job.steps.filter((s) => s.run !== undefined && !installs(s.run));
      expect(steps.length).toBeGreaterThanOrEqual(2);
      for (const step of steps) {
        const ran = await runStep(step.run!, env, home, bin());
        expect(ran.code, `${step.run}\n${ran.stdout}${ran.stderr}`).toBe(0);
        expect(ran.stdout + ran.stderr).not.toContain(requestToken);
        if (minted) expect(ran.stdout + ran.stderr).not.toContain(minted.split('.')[2]);
      }
      expect(asked).toEqual([{ authorization: `bearer ${requestToken}`, audience: rules.github.audience }]);
      const session = await expectPushedAsWorkload(identityId, sha, env['LATCHKEY_SESSION_FILE']!, minted);
      for (const text of textsUnder(env['LATCHKEY_CONFIG_DIR']!)) expect(text).not.toContain(session.token);
    } finally {
      endpoint.closeAllConnections();
      await new Promise((done) => endpoint.close(done));
    }
  }, 120_000);

  it('runs the GitLab CI job: the ID token comes in the variable id_tokens names', async () => {
    const job = jobs.gitlab;
    const [[variable, { aud }]] = Object.entries(job.id_tokens) as [[string, { aud: string }]];
    expect(variable).toBe('LATCHKEY_ID_TOKEN');
    expect(aud).toBe(rules.gitlab.audience);
    const identityId = await createIdentity(rules.gitlab);
    const jwt = await issuer.sign({ aud, sub: rules.gitlab.subject, ...rules.gitlab.claims });
    const home = mkdtempSync(join(work, 'gitlab-'));
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const env = jobEnv(job.variables, {
      HOME: home,
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: sha,
      CI_COMMIT_BRANCH: 'main',
      [variable]: jwt,
    });
    // A GitLab job's script is one shell: its lines share variables, the first failure ends it.
    const script = job.script.filter((line) => !installs(line));
    expect(script.some((line) => line.startsWith('latchkey login --workload'))).toBe(true);
    const ran = await runStep(
      `${script.join('\n')}\necho "session=$LATCHKEY_SESSION_FILE"`,
      env,
      home,
      bin(),
    );
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout + ran.stderr).not.toContain(jwt.split('.')[2]);
    const sessionFile = /session=(.+)$/m.exec(ran.stdout)![1]!;
    const session = await expectPushedAsWorkload(identityId, sha, sessionFile, jwt);
    for (const text of textsUnder(env['LATCHKEY_CONFIG_DIR']!)) expect(text).not.toContain(session.token);
    expect(ran.stdout).toMatch(
      /Logged in as workload deploy-web-gitlab of acme \(ID token from LATCHKEY_ID_TOKEN\)/,
    );
  }, 120_000);
});
