/**
 * The real `latchkey` binary, spawned as a user runs it, against the Express example server on a
 * fresh store: settings, devices, pull and push with conflict modes and their exit codes, two
 * machines racing on one key, rebase, force-overwrite by role, activity export and verification,
 * and its refusals.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKEN, useCliServer } from './cli-harness.js';

describe('latchkey CLI against a real server', () => {
  const { machine, api, file, work, state, url } = useCliServer();

  it('says who the token is, with global options before or after the command words', async () => {
    const alice = machine('alice');
    const me = await alice('whoami');
    expect(me.code).toBe(0);
    expect(me.stdout).toMatch(/^admin \(owner\) in acme/);
    const json = await alice('whoami', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ role: 'owner', organization: { slug: 'acme' } });
    expect(JSON.parse((await alice('--json', 'whoami')).stdout)).toMatchObject({ role: 'owner' });
  });

  it('keeps settings in a 0600 config file that flags and the environment override, and never prints the token', async () => {
    const configured = machine('configured', TOKEN, {
      LATCHKEY_URL: '',
      LATCHKEY_TOKEN: '',
      LATCHKEY_ORG: '',
    });
    expect((await configured('whoami')).code).toBe(2);
    for (const [key, value] of [
      ['url', url()],
      ['org', 'acme'],
    ] as const) {
      expect((await configured('config', 'set', key, value)).code).toBe(0);
    }
    // The token is read from stdin, never taken as an argument.
    const typed = machine(
      'configured',
      TOKEN,
      { LATCHKEY_URL: '', LATCHKEY_TOKEN: '', LATCHKEY_ORG: '' },
      TOKEN,
    );
    const set = await typed('config', 'set', 'token');
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain(TOKEN);
    expect(statSync(join(work, 'configured', 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(work, 'configured')).mode & 0o777).toBe(0o700);
    expect((await configured('whoami')).stdout).toMatch(/^admin \(owner\) in acme/);
    const shown = await configured('config', 'show');
    expect(shown.stdout).toMatch(/token\s+lk_cli…/);
    expect(shown.stdout).not.toContain(TOKEN);
    // --token-file beats the file: this organization does not exist for that token.
    writeFileSync(file('stranger.token'), `lk_${'y'.repeat(43)}\n`);
    expect((await configured('whoami', '--token-file', file('stranger.token'))).code).toBe(4);
    expect((await configured('config', 'set', 'colour', 'blue')).code).toBe(2);
  });

  it('enrolls a device: the private key stays here (0600) and is remembered for pushes', async () => {
    const alice = machine('alice');
    const enrolled = await alice('device', 'enroll', '--name', 'laptop', '--json');
    expect(enrolled.code).toBe(0);
    const device = JSON.parse(enrolled.stdout) as { id: string; key_file: string; public_key: string };
    expect(statSync(device.key_file).mode & 0o777).toBe(0o600);
    expect(readFileSync(device.key_file, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(statSync(join(work, 'alice', 'state.json')).mode & 0o777).toBe(0o600);
    const list = await alice('device', 'list');
    expect(list.stdout).toMatch(new RegExp(`${device.id}\\s+laptop\\s+admin\\s+active.*\\(this machine\\)`));
    // Enrolling again under the same name would overwrite the key: refused.
    expect((await alice('device', 'enroll', '--name', 'laptop')).code).toBe(1);
  });

  it('pulls into a 0600 .env, then pushes only what changed, signed', async () => {
    const alice = machine('alice');
    writeFileSync(file('first.env'), 'API_URL=https://api.example\nDB_PASSWORD="p@ss word\\n2"\n');
    const first = await alice('push', 'first.env');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/API_URL\s+added\s+1/);
    const pulled = await alice('pull', '--out', 'pulled.env');
    expect(pulled.code).toBe(0);
    expect(statSync(file('pulled.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(file('pulled.env'), 'utf8')).toBe(
      'API_URL=https://api.example\nDB_PASSWORD="p@ss word\\n2"\n',
    );
    expect((await alice('push', 'pulled.env')).stdout).toContain('Nothing changed');
    writeFileSync(file('pulled.env'), 'API_URL=https://api2.example\nNEW_KEY=1\n');
    const pushed = await alice('push', 'pulled.env', '--json');
    expect(pushed.code).toBe(0);
    const versions = (JSON.parse(pushed.stdout) as { versions: { key: string; version: number }[] }).versions;
    expect(versions.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'API_URL', version: 2 },
      { key: 'DB_PASSWORD', version: 2 },
      { key: 'NEW_KEY', version: 1 },
    ]);
    const secrets = (await api('GET', '/organizations/acme/projects/web/environments/prod/secrets')).json[
      'secrets'
    ] as { key: string }[];
    expect(secrets.map((s) => s.key).sort()).toEqual(['API_URL', 'NEW_KEY']);
  });

  it('lets one of two machines racing on a key win; the other exits 3 with the conflict table', async () => {
    const alice = machine('alice');
    const bob = machine('bob');
    expect((await bob('device', 'enroll', '--name', 'desktop')).code).toBe(0);
    for (const [run, out] of [
      [alice, 'a.env'],
      [bob, 'b.env'],
    ] as const)
      expect((await run('pull', '--out', out)).code).toBe(0);
    writeFileSync(file('a.env'), readFileSync(file('a.env'), 'utf8').replace('NEW_KEY=1', 'NEW_KEY=alice'));
    writeFileSync(file('b.env'), readFileSync(file('b.env'), 'utf8').replace('NEW_KEY=1', 'NEW_KEY=bob'));
    const [a, b] = await Promise.all([alice('push', 'a.env'), bob('push', 'b.env')]);
    const loser = a.code === 0 ? b : a;
    expect([a.code, b.code].sort()).toEqual([0, 3]);
    expect(loser.stderr).toMatch(/key\s+server version\s+your version/);
    expect(loser.stderr).toMatch(/NEW_KEY\s+2\s+1/);
    expect(loser.stderr).toMatch(/latchkey: version_conflict: .*\(HTTP 409\)/);
  });

  it('rebases a conflict key by key: base, yours and theirs shown, only what is confirmed pushed', async () => {
    const alice = machine('alice');
    expect((await alice('pull', '--out', 'ra.env')).code).toBe(0);
    expect((await machine('bob')('pull', '--out', 'rb.env')).code).toBe(0);
    writeFileSync(file('ra.env'), 'API_URL=https://alice.example\nNEW_KEY=alice-2\n');
    expect((await alice('push', 'ra.env')).code).toBe(0);
    // Bob changed both keys too, and adds one: he keeps his API_URL and takes Alice's NEW_KEY.
    writeFileSync(file('rb.env'), 'API_URL=https://bob.example\nNEW_KEY=bob-2\nBOB_ONLY=yes\n');
    const bob = machine('bob', TOKEN, {}, 'y\nn\n');
    const rebased = await bob('push', 'rb.env', '--rebase');
    expect(rebased.code).toBe(0);
    expect(rebased.stderr).toMatch(/key\s+base\s+yours\s+theirs/);
    expect(rebased.stderr).toMatch(
      /API_URL\s+v\d+ "https:\/\/api2\.example"\s+"https:\/\/bob\.example"\s+v\d+ "https:\/\/alice\.example"/,
    );
    expect(rebased.stderr).toContain("Push yours for API_URL over the server's version");
    const secrets = (await api('GET', '/organizations/acme/projects/web/environments/prod/secrets')).json[
      'secrets'
    ] as { key: string; value: string }[];
    const now = Object.fromEntries(secrets.map((s) => [s.key, s.value]));
    expect(now).toMatchObject({ API_URL: 'https://bob.example', NEW_KEY: 'alice-2', BOB_ONLY: 'yes' });
    // Bob's file now holds what he took from the server; a second push has nothing to send.
    expect(readFileSync(file('rb.env'), 'utf8')).toContain('NEW_KEY=alice-2');
    expect((await machine('bob')('push', 'rb.env')).stdout).toContain('Nothing changed');
  });

  it('rebases nothing without an answer: stdin closed means no', async () => {
    const alice = machine('alice');
    expect((await alice('pull', '--out', 'sa.env')).code).toBe(0);
    expect((await machine('bob')('pull', '--out', 'sb.env')).code).toBe(0);
    writeFileSync(
      file('sa.env'),
      readFileSync(file('sa.env'), 'utf8').replace('BOB_ONLY=yes', 'BOB_ONLY=alice'),
    );
    expect((await alice('push', 'sa.env')).code).toBe(0);
    writeFileSync(
      file('sb.env'),
      readFileSync(file('sb.env'), 'utf8').replace('BOB_ONLY=yes', 'BOB_ONLY=bob'),
    );
    const silent = await machine('bob')('push', 'sb.env', '--rebase');
    expect(silent.code).toBe(0);
    expect(silent.stderr).toContain('(no answer: no)');
    expect(silent.stdout).toContain('Nothing left to push');
    const secrets = (await api('GET', '/organizations/acme/projects/web/environments/prod/secrets')).json[
      'secrets'
    ] as { key: string; value: string }[];
    expect(secrets.find((s) => s.key === 'BOB_ONLY')?.value).toBe('alice');
  });

  it('refuses strict mode without the versions a pull records (exit 3)', async () => {
    const carol = machine('carol');
    expect((await carol('device', 'enroll', '--name', 'ci')).code).toBe(0);
    writeFileSync(file('c.env'), 'NEW_KEY=carol\n');
    const strict = await carol('push', 'c.env', '--conflict-mode', 'strict');
    expect(strict.code).toBe(3);
    expect(strict.stderr).toContain('if_version_required');
    expect(strict.stderr).toContain('NEW_KEY');
  });

  it('refuses --force-overwrite to a developer (exit 4); an admin’s is recorded as push_force_overwrite', async () => {
    const dev = machine('dev', state.developerToken);
    expect((await dev('device', 'enroll', '--name', 'dev-laptop')).code).toBe(0);
    writeFileSync(file('d.env'), 'NEW_KEY=forced\n');
    const refused = await dev('push', 'd.env', '--force-overwrite');
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('forbidden');
    const carol = machine('carol');
    const forced = await carol('push', 'd.env', '--force-overwrite');
    expect(forced.code).toBe(0);
    const history = (await api('GET', '/organizations/acme/history?type=push_force_overwrite')).json[
      'events'
    ] as {
      data: { keys: { key: string; client_if_version: number | null }[] };
    }[];
    expect(history).toHaveLength(1);
    expect(history[0]!.data.keys).toMatchObject([{ key: 'NEW_KEY', client_if_version: null }]);
  });

  it('exports the activity log with progress, and verifies it; an edited line fails with exit 5', async () => {
    const alice = machine('alice');
    const exported = await alice('activity', 'export', '--out', 'activity.ndjson');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Exported \d+ lines/);
    const checkpoint = await api('GET', '/organizations/acme/activity/checkpoint');
    const key = checkpoint.json['public_key'] as string;
    const verified = await alice('activity', 'verify', 'activity.ndjson', '--public-key', key);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('signed by the given key: valid');
    const lines = readFileSync(file('activity.ndjson'), 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"web"', '"wex"');
    writeFileSync(file('edited.ndjson'), lines.join('\n'));
    const edited = await alice('activity', 'verify', 'edited.ndjson');
    expect(edited.code).toBe(5);
    expect(edited.stderr).toMatch(/edited\.ndjson:3: edited/);
    const truncated = readFileSync(file('activity.ndjson'), 'utf8').split('\n').slice(0, 4).join('\n');
    writeFileSync(file('truncated.ndjson'), `${truncated}\n`);
    const cut = await alice('activity', 'verify', 'truncated.ndjson', '--public-key', key);
    expect(cut.code).toBe(5);
    expect(cut.stderr).toContain('truncated');
  });

  it('refuses plain http beyond loopback, a bad token, and unknown options, each with its exit code', async () => {
    const alice = machine('alice');
    const plain = await alice('whoami', '--url', 'http://latchkey.example');
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('Refusing plain http://');
    const stranger = machine('stranger', `lk_${'x'.repeat(43)}`);
    const refused = await stranger('whoami');
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/^latchkey: unauthenticated: .*\(HTTP 401\)\n$/);
    expect((await alice('pull', '--nope')).code).toBe(2);
    expect((await alice('frobnicate')).code).toBe(2);
    const down = await alice('whoami', '--url', 'http://127.0.0.1:1');
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot reach');
  });
});
