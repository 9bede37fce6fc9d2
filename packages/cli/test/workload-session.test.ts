/**
 * `latchkey login --workload` and the session it leaves, against the Express example trusting a
 * test OIDC issuer: an ID token from a file, a refused one (exit 4, the check named, the token
 * never printed, no session written), a replayed one, GitHub Actions without an audience (exit 2);
 * a session file others could read is replaced by one of mode 0600 at login and refused by push;
 * `push --propose` as the workload; lenient refused, another organization refused, an expired
 * session exits 4 before anything is sent.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { startTestIssuer, type TestIssuer } from '@latchkey/test-utils/oidc-issuer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCliServer } from './cli-harness.js';

const AUDIENCE = 'https://latchkey.test/acme';
const SUBJECT = 'repo:acme/web:ref:refs/heads/main';
const CLAIMS = { repository_id: '424242', ref: 'refs/heads/main' };

describe('workload sessions of the CLI', () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await startTestIssuer('localhost');
  });
  afterAll(async () => issuer?.close());
  const { machine, api, file, serverOutput } = useCliServer(() => ({
    LATCHKEY_TRUSTED_ISSUERS: issuer.issuer,
    NODE_EXTRA_CA_CERTS: issuer.caFile,
  }));

  /** A machine with no API token: only the session speaks for it. */
  const ci = (name: string, extra: Record<string, string> = {}) => machine(name, '', extra);
  const jwt = (claims: Record<string, unknown> = {}) =>
    issuer.sign({ aud: AUDIENCE, sub: SUBJECT, ...CLAIMS, ...claims });
  const expectNoPartOf = (text: string, token: string) => {
    for (const part of token.split('.')) expect(text).not.toContain(part);
  };

  beforeAll(async () => {
    for (const [name, actions] of [
      ['ci-propose', ['secrets:read', 'changes:propose']],
      ['ci-push', ['secrets:read', 'secrets:push']],
    ] as const) {
      const created = await api('POST', '/organizations/acme/workload-identities', {
        name,
        issuer: issuer.issuer,
        audience: AUDIENCE,
        subject: SUBJECT,
        claims: CLAIMS,
        grants: [{ project: 'web', environments: ['prod'] }],
        actions,
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
    }
    const admin = machine('admin');
    expect((await admin('device', 'enroll', '--name', 'admin-laptop')).code).toBe(0);
    writeFileSync(file('seed.env'), 'DB_URL=one\n');
    expect((await admin('push', 'seed.env')).code).toBe(0);
  });

  it('logs in with an ID token file, over a session file others could read, and keeps no JWT', async () => {
    const idToken = await jwt();
    writeFileSync(file('id-token'), `${idToken}\n`);
    writeFileSync(file('wide.json'), '{}', { mode: 0o644 });
    chmodSync(file('wide.json'), 0o644);
    const run = ci('file-login');
    const login = await run(
      'login',
      '--workload',
      'ci-push',
      '--id-token-file',
      file('id-token'),
      '--session-file',
      file('wide.json'),
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(
      /could be read by others \(mode 644\); it was replaced by a file of mode 0600/,
    );
    expect(login.stdout).toMatch(
      /Logged in as workload ci-push of acme \(ID token from \S+id-token\), device dev_\S+, until /,
    );
    expect(login.stdout).toMatch(/Actions: secrets:read, secrets:push; on web\/prod\./);
    expect(statSync(file('wide.json')).mode & 0o777).toBe(0o600);
    const session = readFileSync(file('wide.json'), 'utf8');
    expectNoPartOf(session + login.stdout + login.stderr, idToken);
    const { token } = JSON.parse(session) as { token: string };
    expect(token).toMatch(/^lkw_/);
    expect(login.stdout + login.stderr).not.toContain(token);

    // The same ID token again: its jti is spent.
    const again = await run(
      'login',
      '--workload',
      'ci-push',
      '--id-token-file',
      file('id-token'),
      '--session-file',
      file('again.json'),
    );
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/token_replayed/);
    expectNoPartOf(again.stderr + serverOutput(), idToken);
    expect(serverOutput()).not.toContain(token);
    expect(existsSync(file('again.json'))).toBe(false);

    // Pushes are strict with a session: lenient is refused before anything is sent.
    const env = { LATCHKEY_SESSION_FILE: file('wide.json') };
    const lenient = await ci('file-login', env)('push', 'seed.env', '--conflict-mode', 'lenient');
    expect(lenient.code).toBe(2);
    expect(lenient.stderr).toMatch(/pushes strict always/);
    const otherOrg = await ci('file-login', env)('pull', '--out', 'x.env', '--org', 'globex');
    expect(otherOrg.code).toBe(2);
    expect(otherOrg.stderr).toMatch(/is for the organization acme, not globex/);

    // Opened to others after login: refused.
    chmodSync(file('wide.json'), 0o640);
    const open = await ci('file-login', env)('pull', '--out', 'open.env');
    expect(open.code).toBe(4);
    expect(open.stderr).toMatch(/may be read by others \(mode 640\): refusing it/);
    expect(existsSync(file('open.env'))).toBe(false);
  }, 120_000);

  it('refuses a bad ID token with the check it failed, printing none of it, and writes no session', async () => {
    const wrong = await jwt({ aud: 'https://elsewhere.test' });
    const refused = await ci('bad', { LATCHKEY_ID_TOKEN: wrong })(
      'login',
      '--workload',
      'ci-push',
      '--session-file',
      file('bad.json'),
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/invalid_workload_token: The ID token failed the aud check/);
    expectNoPartOf(refused.stdout + refused.stderr + serverOutput(), wrong);
    expect(existsSync(file('bad.json'))).toBe(false);

    const notJwt = await ci('bad', { LATCHKEY_ID_TOKEN: 'not a token' })(
      'login',
      '--workload',
      'ci-push',
      '--session-file',
      file('bad.json'),
    );
    expect(notJwt.code).toBe(2);
    expect(notJwt.stderr).toMatch(/LATCHKEY_ID_TOKEN does not hold an ID token/);

    const none = await ci('bad')('login', '--workload', 'ci-push', '--session-file', file('bad.json'));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/No ID token: give --id-token-file F, set LATCHKEY_ID_TOKEN/);

    const github = await ci('bad', {
      ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/token?api-version=2.0',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token',
    })('login', '--workload', 'ci-push', '--session-file', file('bad.json'));
    expect(github.code).toBe(2);
    expect(github.stderr).toMatch(
      /give --audience \(or LATCHKEY_AUDIENCE\), the workload identity's audience/,
    );

    const nowhere = await ci('bad', { LATCHKEY_ID_TOKEN: await jwt() })('login', '--workload', 'ci-push');
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/--session-file F or LATCHKEY_SESSION_FILE/);
  }, 120_000);

  it('proposes as the workload, and stops with its session once it expired', async () => {
    const policy = await api('PATCH', '/organizations/acme/projects/web/environments/prod', {
      approval_policy: { required_approvals: 1, bypass_roles: ['owner'] },
    });
    expect(policy.status, JSON.stringify(policy.json)).toBe(200);
    const env = { LATCHKEY_SESSION_FILE: file('propose.json'), LATCHKEY_ID_TOKEN: await jwt() };
    const run = ci('proposer', env);
    expect((await run('login', '--workload', 'ci-propose')).code).toBe(0);
    expect((await run('pull', '--out', 'p.env')).code).toBe(0);
    writeFileSync(file('p.env'), readFileSync(file('p.env'), 'utf8').replace('DB_URL=one', 'DB_URL=two'));
    // No secrets:push: a plain push is refused; a proposal is what it may make.
    const plain = await run('push', 'p.env');
    expect(plain.code).toBe(4);
    const proposed = await run('push', 'p.env', '--propose', 'Rotate from CI');
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(/Proposed chr_\S+ in web\/prod/);
    const { json } = await api('GET', '/organizations/acme/projects/web/environments/prod/change-requests');
    const request = (json['change_requests'] as { title: string; device_id?: string }[]).find(
      (r) => r.title === 'Rotate from CI',
    );
    const session = JSON.parse(readFileSync(file('propose.json'), 'utf8')) as { device_id: string };
    expect(request?.device_id).toBe(session.device_id);

    // The session's expiry passed (its file says so): nothing is sent, and it says to log in again.
    writeFileSync(
      file('propose.json'),
      JSON.stringify({
        ...JSON.parse(readFileSync(file('propose.json'), 'utf8')),
        expires_at: '2020-01-01T00:00:00.000Z',
      }),
      { mode: 0o600 },
    );
    const expired = await run('pull', '--out', 'late.env');
    expect(expired.code).toBe(4);
    expect(expired.stderr).toMatch(
      /session in \S+propose\.json expired at 2020-01-01T00:00:00\.000Z: log in again with `latchkey login --workload ci-propose`/,
    );
    expect(existsSync(file('late.env'))).toBe(false);
  }, 120_000);
});
