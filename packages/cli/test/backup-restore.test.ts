/**
 * `latchkey backup restore` end to end: a backup made by `backup create` restores into a fresh
 * organization with every secret and version, member, webhook and a chain `activity verify`
 * accepts; a wrong key, a flipped byte, a cut file or content that no longer matches its manifest
 * is refused with exit 5 and nothing written; a non-empty organization needs --force.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeMtlsCertificates } from '@latchkey/test-utils/mtls-certificates';
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, useCliServer } from './cli-harness.js';

const API_KEY = 'cli-backup-intake-key-5e1f';

describe('latchkey backup restore', () => {
  const { machine, api, file } = useCliServer();
  let identity = '';
  let recipient = '';
  let clientKey = '';
  const newOrganization = async (slug: string) => {
    const created = await api('POST', '/organizations', { slug });
    expect(created.status).toBe(201);
    return created.json['token'] as string;
  };
  const secretsOf = async (org: string, token: string) =>
    (
      (await api('GET', `/organizations/${org}/projects/web/environments/prod/secrets`, undefined, token))
        .json['secrets'] as { key: string; value: string; version: number }[]
    )
      .map((s) => [s.key, s.value, s.version])
      .sort();
  const historyOf = async (org: string, token: string) =>
    (await api('GET', `/organizations/${org}/history?limit=500`, undefined, token)).json['events'] as {
      type: string;
      seq: number;
    }[];

  beforeAll(async () => {
    identity = await generateX25519Identity();
    recipient = await identityToRecipient(identity);
    writeFileSync(file('identity.txt'), `# created: by the test\n# public key: ${recipient}\n${identity}\n`);
    writeFileSync(file('passphrase.txt'), 'correct horse battery staple\n');
    const alice = machine('alice');
    expect((await alice('device', 'enroll', '--name', 'laptop')).code).toBe(0);
    writeFileSync(file('seed.env'), 'API_URL=https://api.example\nDB_PASSWORD="p@ss word\\n2"\nTOKEN=one\n');
    expect((await alice('push', 'seed.env')).code).toBe(0);
    writeFileSync(file('seed.env'), 'API_URL=https://api.example\nDB_PASSWORD="p@ss word\\n2"\nTOKEN=two\n');
    expect((await alice('push', 'seed.env')).code).toBe(0);
    const { client } = makeMtlsCertificates(dirname(file('identity.txt')), 'localhost');
    clientKey = client.key;
    const hook = await api('POST', '/organizations/acme/audit-webhooks', {
      name: 'siem',
      url: 'https://localhost:9/hook',
      headers: { 'X-Api-Key': API_KEY },
      client_certificate: { certificate: client.cert, private_key: client.key },
    });
    expect(hook.status).toBe(201);
    expect((await alice('backup', 'create', '--out', 'acme.age', '--recipient', recipient)).code).toBe(0);
    expect(
      (await alice('backup', 'create', '--out', 'pass.age', '--passphrase-file', 'passphrase.txt')).code,
    ).toBe(0);
  }, 60_000);

  it('restores into a fresh organization: secrets and versions, members, webhooks, a chain that verifies', async () => {
    const token = await newOrganization('acme-restored');
    const restorer = machine('restorer', token, { LATCHKEY_ORG: 'acme-restored' });
    const restored = await restorer('backup', 'restore', 'acme.age', '--identity', 'identity.txt');
    expect(restored.stderr).toMatch(/^checking: [\d.]+ MB decrypted$/m);
    expect(restored.stderr).toMatch(/^restoring: [\d.]+ MB of [\d.]+ MB sent$/m);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/secret\s+3/);
    expect(restored.stdout).toMatch(/Restored acme\.age into acme-restored in [\d.]+ s/);

    expect(await secretsOf('acme-restored', token)).toEqual(await secretsOf('acme', TOKEN));
    expect((await secretsOf('acme-restored', token)).find((s) => s[0] === 'TOKEN')).toEqual([
      'TOKEN',
      'two',
      2,
    ]);
    const members = async (org: string, t: string) =>
      (
        (await api('GET', `/organizations/${org}/members`, undefined, t)).json['members'] as {
          user: string;
          role: string;
        }[]
      )
        .map((m) => [m.user, m.role])
        .sort();
    expect(await members('acme-restored', token)).toEqual(await members('acme', TOKEN));
    const hooks = (await api('GET', '/organizations/acme-restored/audit-webhooks', undefined, token)).json[
      'audit_webhooks'
    ] as { name: string; url: string }[];
    expect(hooks.map((h) => [h.name, h.url])).toEqual([['siem', 'https://localhost:9/hook']]);
    // The webhook's header and client certificate came back, sealed again (shown masked, by fingerprint).
    const [original] = (await api('GET', '/organizations/acme/audit-webhooks')).json['audit_webhooks'] as {
      client_certificate: { fingerprint_sha256: string };
    }[];
    expect(hooks[0]).toMatchObject({
      headers: { 'X-Api-Key': '••••' },
      client_certificate: { fingerprint_sha256: original!.client_certificate.fingerprint_sha256 },
    });
    // In the backup file they are encrypted: neither the value nor a line of the key is in its bytes.
    const bytes = readFileSync(file('acme.age')).toString('latin1');
    expect(bytes).not.toContain(API_KEY);
    expect(bytes).not.toContain(clientKey.split('\n')[1]!);

    // The chain: exported by the CLI and verified, backup_restored on top of the backup's events.
    expect((await restorer('activity', 'export', '--out', 'restored.ndjson')).code).toBe(0);
    const verified = await restorer('activity', 'verify', 'restored.ndjson');
    expect(verified.stdout + verified.stderr).not.toMatch(/FAIL|bad/i);
    expect(verified.code).toBe(0);
    const types = readFileSync(file('restored.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type?: string }).type);
    expect(types).toContain('backup_restored');
    expect(types.filter((t) => t === 'push_applied')).toHaveLength(2);

    // Again without --force: the organization is no longer empty.
    const again = await restorer('backup', 'restore', 'acme.age', '--identity', 'identity.txt');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/organization_not_empty: .*force/);
    const forced = await restorer('backup', 'restore', 'acme.age', '--identity', 'identity.txt', '--force');
    expect(forced.code).toBe(0);
  }, 60_000);

  it('restores a passphrase backup, and refuses a wrong passphrase with exit 5', async () => {
    const token = await newOrganization('acme-pass');
    const restorer = machine('pass', token, { LATCHKEY_ORG: 'acme-pass' });
    writeFileSync(file('wrong.txt'), 'not the right passphrase\n');
    const wrong = await restorer('backup', 'restore', 'pass.age', '--passphrase-file', 'wrong.txt');
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toMatch(/Cannot decrypt pass\.age: wrong passphrase/);
    expect(await secretsOf('acme-pass', token).catch(() => null)).toBeNull();
    const right = await restorer('backup', 'restore', 'pass.age', '--passphrase-file', 'passphrase.txt');
    expect(right.code).toBe(0);
    expect(await secretsOf('acme-pass', token)).toEqual(await secretsOf('acme', TOKEN));
  }, 60_000);

  it('refuses a wrong identity, a flipped byte, a cut file and edited content with exit 5, writing nothing', async () => {
    const token = await newOrganization('acme-untouched');
    const restorer = machine('untouched', token, { LATCHKEY_ORG: 'acme-untouched' });
    const before = await historyOf('acme-untouched', token);
    const other = await generateX25519Identity();
    writeFileSync(file('other.txt'), `${other}\n`);
    const bytes = readFileSync(file('acme.age'));
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 40] = flipped[flipped.length - 40]! ^ 1;
    writeFileSync(file('flipped.age'), flipped);
    writeFileSync(file('cut.age'), bytes.subarray(0, bytes.length - 100));
    // Content changed by someone holding the key, manifest left as it was: decrypts, does not match.
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const text = await decrypter.decrypt(bytes, 'text');
    const encrypter = new Encrypter();
    encrypter.addRecipient(recipient);
    writeFileSync(file('edited.age'), await encrypter.encrypt(text.replace('"TOKEN"', '"TOKEM"')));

    const cases: [string, string, RegExp][] = [
      ['acme.age', 'other.txt', /Cannot decrypt acme\.age: wrong identity/],
      ['flipped.age', 'identity.txt', /flipped\.age is damaged or cut short/],
      ['cut.age', 'identity.txt', /cut\.age is damaged or cut short/],
      ['edited.age', 'identity.txt', /edited\.age does not match its manifest/],
    ];
    for (const [backup, key, message] of cases) {
      const refused = await restorer('backup', 'restore', backup, '--identity', key);
      expect({ backup, code: refused.code }).toEqual({ backup, code: 5 });
      expect(refused.stderr).toMatch(message);
    }
    expect(await historyOf('acme-untouched', token)).toEqual(before);
    expect((await api('GET', '/organizations/acme-untouched/projects', undefined, token)).json).toEqual({
      projects: [],
    });
    // Usage errors: no key, both keys, an identity file without an identity.
    expect((await restorer('backup', 'restore', 'acme.age')).code).toBe(2);
    expect(
      (
        await restorer(
          'backup',
          'restore',
          'acme.age',
          '--identity',
          'identity.txt',
          '--passphrase-file',
          'passphrase.txt',
        )
      ).code,
    ).toBe(2);
    expect((await restorer('backup', 'restore', 'acme.age', '--identity', 'seed.env')).code).toBe(2);
  }, 60_000);

  it('names the audit key that signs the history, and refuses a backup without a signed checkpoint with exit 5', async () => {
    const alice = machine('alice');
    const created = await alice('backup', 'create', '--out', 'signed.age', '--recipient', recipient);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/signed up to event \d+ by audit key [0-9a-f]{16}\./);
    // The same content as an older backup would hold it: no checkpoint, its manifest made to match.
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const lines = (await decrypter.decrypt(readFileSync(file('acme.age')), 'text')).trimEnd().split('\n');
    const manifest = JSON.parse(lines.pop()!) as Record<string, unknown>;
    const { checkpoint: _checkpoint, ...header } = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, format_version: 1 });
    const content = `${lines.join('\n')}\n`;
    const older = {
      ...manifest,
      format_version: 1,
      checkpoint: null,
      bytes: Buffer.byteLength(content),
      sha256: createHash('sha256').update(content).digest('hex'),
    };
    const encrypter = new Encrypter();
    encrypter.addRecipient(recipient);
    writeFileSync(file('older.age'), await encrypter.encrypt(`${content}${JSON.stringify(older)}\n`));
    const token = await newOrganization('acme-older');
    const restorer = machine('older', token, { LATCHKEY_ORG: 'acme-older' });
    const refused = await restorer('backup', 'restore', 'older.age', '--identity', 'identity.txt');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/older\.age carries no signed checkpoint of its activity log/);
    expect((await api('GET', '/organizations/acme-older/projects', undefined, token)).json).toEqual({
      projects: [],
    });
  }, 60_000);

  it('is for owners only: an admin is refused with exit 4', async () => {
    const added = await api('POST', '/organizations/acme/members', { user: 'ada', role: 'admin' });
    expect(added.status).toBe(201);
    const adminToken = (await api('POST', '/organizations/acme/tokens', { user: 'ada', name: 'cli' })).json[
      'token'
    ] as string;
    const ada = machine('ada', adminToken);
    const refused = await ada('backup', 'restore', 'acme.age', '--identity', 'identity.txt', '--force');
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/forbidden/);
  }, 60_000);
});
