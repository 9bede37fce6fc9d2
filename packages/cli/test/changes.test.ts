/**
 * Change requests from the command line, against the Express example server: under an approval
 * policy a plain push is refused (exit 4) and `push --propose` makes a request instead; `changes
 * list|show` print readable tables (values only on request) and `--json`; a developer may not
 * approve, an admin's approval is signed with her device as the policy requires; `apply` writes
 * the changes, and exits 3 with the moved keys once a bypass push has moved one; cancel and
 * reject close a request, which then cannot be applied.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './cli-harness.js';

const ENV = '/organizations/acme/projects/web/environments/prod';

/** The id a `push --propose --json` printed. */
const idOf = (stdout: string) => (JSON.parse(stdout) as { change_request: { id: string } }).change_request.id;

describe('latchkey changes against a real server', () => {
  const { machine, api, file, state } = useCliServer();
  let carolToken = '';

  const head = async (key: string) => {
    const { json } = await api('GET', `${ENV}/secrets`);
    return (json['secrets'] as { key: string; value: string; version: number }[]).find((s) => s.key === key);
  };
  const edit = (name: string, from: RegExp, to: string) =>
    writeFileSync(file(name), readFileSync(file(name), 'utf8').replace(from, to));

  it('refuses a plain push under a policy and proposes the same changes as a request', async () => {
    const admin = machine('admin');
    expect((await admin('device', 'enroll', '--name', 'admin-laptop')).code).toBe(0);
    writeFileSync(file('admin.env'), 'DB_URL=one\nAPI_KEY=k1\nOLD_FLAG=on\n');
    expect((await admin('push', 'admin.env')).code).toBe(0);
    await api('POST', '/organizations/acme/members', { user: 'carol', role: 'admin' });
    carolToken = (await api('POST', '/organizations/acme/tokens', { user: 'carol', name: 'cli' })).json[
      'token'
    ] as string;
    const policy = await api('PATCH', ENV, {
      approval_policy: { required_approvals: 1, require_signed_approvals: true, bypass_roles: ['owner'] },
    });
    expect(policy.status, JSON.stringify(policy.json)).toBe(200);

    const dev = machine('dev', state.developerToken);
    expect((await dev('device', 'enroll', '--name', 'dev-laptop')).code).toBe(0);
    expect((await dev('pull', '--out', 'dev.env')).code).toBe(0);
    edit('dev.env', /^DB_URL=.*$/m, 'DB_URL=two');
    const plain = await dev('push', 'dev.env');
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/approval_required/);
    const bypass = await dev('push', 'dev.env', '--bypass-reason', 'in a hurry');
    expect(bypass.code).toBe(4);

    const proposed = await dev(
      'push',
      'dev.env',
      '--propose',
      'Rotate the database URL',
      '--description',
      'New host',
    );
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(/DB_URL\s+set\s+1/);
    expect(proposed.stdout).toMatch(/Proposed chr_\S+ in web\/prod: 1 approval\(s\) needed/);
    expect(proposed.stdout).not.toContain('two');
    expect(await head('DB_URL')).toMatchObject({ value: 'one', version: 1 });

    const listed = await dev('changes', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/id\s+status\s+title\s+by\s+keys\s+approvals\s+created\s+expires/);
    expect(listed.stdout).toMatch(/chr_\S+\s+open\s+Rotate the database URL\s+dev\s+1\s+0\/1/);
    const json = JSON.parse((await dev('changes', 'list', '--json', '--status', 'open')).stdout) as {
      change_requests: { title: string; changes: { value?: string }[] }[];
    };
    expect(json.change_requests.map((r) => r.title)).toEqual(['Rotate the database URL']);
    expect(json.change_requests[0]!.changes[0]).not.toHaveProperty('value');
  }, 120_000);

  it('shows a request’s keys and versions, its values only on request, and approves it signed by a device', async () => {
    const dev = machine('dev', state.developerToken);
    const id = (
      JSON.parse((await dev('changes', 'list', '--json')).stdout) as { change_requests: { id: string }[] }
    ).change_requests[0]!.id;
    // A developer is no approver here; nor is a request approved by its author.
    const refused = await dev('changes', 'approve', id);
    expect(refused.code).toBe(4);

    const carol = machine('carol', carolToken);
    const shown = await carol('changes', 'show', id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Rotate the database URL');
    expect(shown.stdout).toMatch(/key\s+change\s+based on\s+now/);
    expect(shown.stdout).toMatch(/DB_URL\s+set\s+1\s+1/);
    expect(shown.stdout).toMatch(/Approvals: 0 of 1/);
    expect(shown.stdout).not.toContain('two');
    const values = await carol('changes', 'show', id, '--values');
    expect(values.stdout).toMatch(/DB_URL\s+set\s+1\s+1\s+two/);
    const { json: history } = await api('GET', `${ENV}/history?limit=5`);
    expect((history['events'] as { type: string }[]).map((e) => e.type)).toContain(
      'change_request_values_read',
    );

    // The policy wants signed approvals: without a device there is nothing to sign with.
    const unsigned = await carol('changes', 'approve', id);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toMatch(/device enroll/);
    expect((await carol('device', 'enroll', '--name', 'carol-laptop')).code).toBe(0);
    const approved = await carol('changes', 'approve', id, '--comment', 'looks right');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(
      /Approved chr_\S+ \(signed by this device\): 1 of 1 approval\(s\), now approved/,
    );
    const again = await carol('changes', 'approve', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already_approved|change_request_closed/);
    const after = await carol('changes', 'show', id);
    expect(after.stdout).toMatch(/carol at \S+ \(signed, dev_\S+\): looks right/);
  }, 120_000);

  it('applies an approved request, and exits 3 with the moved keys once a bypass push moved one', async () => {
    const dev = machine('dev', state.developerToken);
    const carol = machine('carol', carolToken);
    const first = (
      JSON.parse((await dev('changes', 'list', '--json', '--status', 'approved')).stdout) as {
        change_requests: { id: string }[];
      }
    ).change_requests[0]!.id;
    const applied = await dev('changes', 'apply', first);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/DB_URL\s+2/);
    expect(applied.stdout).toMatch(/Applied chr_\S+ to web\/prod \(event evt_\S+\)/);
    expect(await head('DB_URL')).toMatchObject({ value: 'two', version: 2 });

    // A second request on API_KEY, approved; then the owner moves API_KEY past the policy.
    expect((await dev('pull', '--out', 'dev.env', '--force')).code).toBe(0);
    edit('dev.env', /^API_KEY=.*$/m, 'API_KEY=k2');
    const second = idOf((await dev('push', 'dev.env', '--propose', 'New API key', '--json')).stdout);
    expect((await carol('changes', 'approve', second)).code).toBe(0);
    const admin = machine('admin');
    expect((await admin('pull', '--out', 'admin.env', '--force')).code).toBe(0);
    edit('admin.env', /^API_KEY=.*$/m, 'API_KEY=k3');
    const bypassed = await admin('push', 'admin.env', '--bypass-reason', 'incident 42');
    expect(bypassed.code, bypassed.stderr).toBe(0);
    const shown = await carol('changes', 'show', second);
    expect(shown.stdout).toMatch(/API_KEY\s+set\s+1\s+2\s+MOVED/);
    expect(shown.stdout).toMatch(/applying it will be refused/);

    const conflicted = await dev('changes', 'apply', second);
    expect(conflicted.code).toBe(3);
    expect(conflicted.stderr).toMatch(/API_KEY\s+2\s+1/);
    expect(conflicted.stderr).toMatch(/Nothing was written and chr_\S+ is now conflicted/);
    expect(await head('API_KEY')).toMatchObject({ value: 'k3', version: 2 });
    const after = JSON.parse((await dev('changes', 'show', second, '--json')).stdout) as {
      change_request: { status: string };
    };
    expect(after.change_request.status).toBe('conflicted');
  }, 120_000);

  it('cancels and rejects requests, which can then not be applied; refuses bad words at once', async () => {
    const dev = machine('dev', state.developerToken);
    const carol = machine('carol', carolToken);
    expect((await dev('pull', '--out', 'dev.env', '--force')).code).toBe(0);
    writeFileSync(file('dev.env'), readFileSync(file('dev.env'), 'utf8').replace(/^OLD_FLAG=.*\n/m, ''));
    const mine = idOf((await dev('push', 'dev.env', '--propose', 'Drop OLD_FLAG', '--json')).stdout);
    const theirs = idOf((await dev('push', 'dev.env', '--propose', 'Drop OLD_FLAG again', '--json')).stdout);
    const cancelled = await dev('changes', 'cancel', mine);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(/Cancelled chr_/);
    const rejected = await carol('changes', 'reject', theirs, '--reason', 'keep it one more week');
    expect(rejected.code, rejected.stderr).toBe(0);
    const shown = await dev('changes', 'show', theirs);
    expect(shown.stdout).toMatch(/OLD_FLAG\s+delete\s+1/);
    expect(shown.stdout).toMatch(/Rejected by carol at \S+: keep it one more week/);
    const closed = await dev('changes', 'apply', theirs);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/change_request_closed/);
    expect(await head('OLD_FLAG')).toMatchObject({ value: 'on', version: 1 });
    const listed = await dev('changes', 'list');
    expect(listed.stdout).toMatch(/cancelled\s+Drop OLD_FLAG\s/);
    expect(listed.stdout).toMatch(/rejected\s+Drop OLD_FLAG again/);

    expect((await dev('push', 'dev.env', '--propose', 'x', '--rebase')).code).toBe(2);
    expect((await dev('push', 'dev.env', '--propose', '')).code).toBe(2);
    expect((await dev('push', 'dev.env', '--description', 'why')).code).toBe(2);
    expect((await dev('changes', 'show', 'nope')).code).toBe(2);
    expect((await dev('changes', 'list', '--status', 'pending')).code).toBe(2);
    expect((await carol('changes', 'reject', theirs)).code).toBe(2);
  }, 120_000);
});
