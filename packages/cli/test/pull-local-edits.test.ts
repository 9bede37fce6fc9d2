/**
 * `latchkey pull` over a file edited since the last pull, with the real binary against the Express
 * example: it writes nothing and exits 3 naming the keys; `--merge` keeps local edits and takes the
 * server's changes in one run, listing the keys changed on both sides (exit 3); `--force`
 * overwrites; a missing file, or one as the last pull or push left it, is written.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './cli-harness.js';

describe('latchkey pull never destroys local edits', () => {
  const { machine, api, file } = useCliServer();
  const alice = machine('alice');
  const bob = machine('bob');
  const read = (name: string) => readFileSync(file(name), 'utf8');
  const serverValues = async () => {
    const { secrets } = (await api('GET', '/organizations/acme/projects/web/environments/prod/secrets'))
      .json as { secrets: { key: string; value: string }[] };
    return Object.fromEntries(secrets.map((s) => [s.key, s.value]));
  };
  /** Bob (another machine) pushes `values` over what he pulled: the server's changes. */
  const bobPushes = async (values: Record<string, string>) => {
    expect((await bob('pull', '--out', 'bob.env', '--force')).code).toBe(0);
    let text = read('bob.env');
    for (const [key, value] of Object.entries(values)) {
      text = text.includes(`${key}=`)
        ? text.replace(new RegExp(`^${key}=.*$`, 'm'), `${key}=${value}`)
        : `${text}${key}=${value}\n`;
    }
    writeFileSync(file('bob.env'), text);
    const pushed = await bob('push', 'bob.env');
    expect(pushed.stderr).toBe('');
    expect(pushed.code).toBe(0);
  };

  it('writes a missing file, and rewrites silently a file as the last pull left it', async () => {
    for (const run of [alice, bob]) expect((await run('device', 'enroll', '--name', 'laptop')).code).toBe(0);
    writeFileSync(file('bob.env'), 'API_URL=https://api.example\nDB_URL=postgres://db/1\nTOKEN=t1\n');
    expect((await bob('push', 'bob.env')).code).toBe(0);
    const first = await alice('pull', '--out', 'alice.env');
    expect(first.code).toBe(0);
    expect(statSync(file('alice.env')).mode & 0o777).toBe(0o600);
    expect(read('alice.env')).toBe('API_URL=https://api.example\nDB_URL=postgres://db/1\nTOKEN=t1\n');
    await bobPushes({ TOKEN: 't2' });
    const second = await alice('pull', '--out', 'alice.env');
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(read('alice.env')).toContain('TOKEN=t2\n');
  });

  it('over a locally edited file exits 3, names the keys (never the values) and leaves the file byte-identical', async () => {
    const edited =
      read('alice.env').replace('DB_URL=postgres://db/1', 'DB_URL=postgres://mine/1') + 'EXTRA=x\n';
    writeFileSync(file('alice.env'), edited);
    await bobPushes({ TOKEN: 't3' });
    const refused = await alice('pull', '--out', 'alice.env');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/DB_URL\s+edited/);
    expect(refused.stderr).toMatch(/EXTRA\s+added/);
    expect(refused.stderr).not.toMatch(/TOKEN|API_URL/);
    expect(refused.stderr).not.toContain('postgres://mine');
    expect(refused.stderr).toContain('pull --merge');
    expect(refused.stderr).toContain('pull --force');
    expect(refused.stdout).toBe('');
    expect(read('alice.env')).toBe(edited);
  });

  it('--merge keeps a local-only edit and takes a server-only change in one run, comments kept; push then sends the edit', async () => {
    writeFileSync(file('alice.env'), `# alice's copy\n${read('alice.env')}`);
    const merged = await alice('pull', '--out', 'alice.env', '--merge');
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(
      /1 server change\(s\) taken \(TOKEN\), 2 local edit\(s\) kept \(DB_URL, EXTRA/,
    );
    expect(read('alice.env')).toBe(
      "# alice's copy\nAPI_URL=https://api.example\nDB_URL=postgres://mine/1\nTOKEN=t3\nEXTRA=x\n",
    );
    // The kept edits are still edits: a plain pull refuses them again.
    expect((await alice('pull', '--out', 'alice.env')).code).toBe(3);
    const pushed = await alice('push', 'alice.env', '--json');
    expect(pushed.code).toBe(0);
    expect(
      (JSON.parse(pushed.stdout) as { versions: { key: string }[] }).versions.map((v) => v.key).sort(),
    ).toEqual(['DB_URL', 'EXTRA']);
    expect(await serverValues()).toEqual({
      API_URL: 'https://api.example',
      DB_URL: 'postgres://mine/1',
      TOKEN: 't3',
      EXTRA: 'x',
    });
    // What the push left is the record: the next pull sees no edits.
    const after = await alice('pull', '--out', 'alice.env');
    expect(after.code).toBe(0);
    expect(read('alice.env')).toContain("# alice's copy\n");
  });

  it('--merge lists a key changed on both sides (exit 3), leaves it as the file has it, writes the rest, and a push of it conflicts', async () => {
    writeFileSync(file('alice.env'), read('alice.env').replace('TOKEN=t3', 'TOKEN=value-here'));
    await bobPushes({ TOKEN: 'value-there', NEW_KEY: 'n' });
    const merged = await alice('pull', '--out', 'alice.env', '--merge', '--json');
    expect(merged.code).toBe(3);
    expect(merged.stderr).toMatch(/TOKEN\s+changed here and on the server/);
    expect(merged.stderr).not.toMatch(/value-here|value-there/);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      merged: { taken: ['NEW_KEY'], kept: [], conflicts: ['TOKEN'] },
    });
    expect(read('alice.env')).toContain('TOKEN=value-here\n');
    expect(read('alice.env')).toContain('NEW_KEY=n\n');
    // Still a conflict for a plain pull, and a push of it meets bob's change instead of overwriting it.
    const refused = await alice('pull', '--out', 'alice.env');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/TOKEN\s+edited/);
    const push = await alice('push', 'alice.env');
    expect(push.code).toBe(3);
    expect(push.stderr).toMatch(/TOKEN\s+\d+\s+\d+/);
    expect((await serverValues())['TOKEN']).toBe('value-there');
  });

  it('--force overwrites local edits with the server’s values', async () => {
    const forced = await alice('pull', '--out', 'alice.env', '--force');
    expect(forced.code).toBe(0);
    const server = await serverValues();
    expect(read('alice.env')).toBe(
      Object.keys(server)
        .sort()
        .map((k) => `${k}=${server[k]}\n`)
        .join(''),
    );
    expect((await alice('pull', '--out', 'alice.env')).code).toBe(0);
  });

  it('keeps JSON files the same way', async () => {
    expect((await alice('pull', '--format', 'json')).code).toBe(0);
    const mine = JSON.parse(read('secrets.json')) as Record<string, string>;
    const edited = `${JSON.stringify({ ...mine, API_URL: 'https://mine.example' }, null, 2)}\n`;
    writeFileSync(file('secrets.json'), edited);
    await bobPushes({ NEW_KEY: 'n2' });
    const refused = await alice('pull', '--format', 'json');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/API_URL\s+edited/);
    expect(read('secrets.json')).toBe(edited);
    expect((await alice('pull', '--format', 'json', '--merge')).code).toBe(0);
    expect(JSON.parse(read('secrets.json'))).toMatchObject({
      API_URL: 'https://mine.example',
      NEW_KEY: 'n2',
    });
  });

  it('takes a file with no record (an older pull) as edited where it differs from the server', async () => {
    const server = await serverValues();
    const same = Object.entries(server)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('');
    writeFileSync(file('old.env'), same);
    expect((await alice('pull', '--out', 'old.env')).code).toBe(0);
    writeFileSync(file('older.env'), same.replace(/^API_URL=.*$/m, 'API_URL=https://stale.example'));
    const refused = await alice('pull', '--out', 'older.env');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/API_URL\s+edited/);
    expect(refused.stderr).toContain('no record');
    const merged = await alice('pull', '--out', 'older.env', '--merge');
    expect(merged.code).toBe(3);
    expect(merged.stderr).toMatch(/API_URL\s+changed here and on the server/);
  });

  it('refuses --merge with --force (exit 2)', async () => {
    expect((await alice('pull', '--merge', '--force')).code).toBe(2);
  });
});
