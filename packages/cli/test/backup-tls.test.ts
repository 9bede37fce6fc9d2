/**
 * `latchkey backup create` checked with the real age tool and age-encryption, and the CLI over TLS
 * to a server whose certificate it trusts (or not), against the example servers.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLoopbackCertificate } from '@latchkey/test-utils/loopback-certificate';
import { startExample, stopExample } from '@latchkey/test-utils/spawn';
import { Decrypter } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { ageMissing, TOKEN, useCliServer } from './cli-harness.js';

describe('latchkey backups and TLS', () => {
  const { machine, api, file, state } = useCliServer();

  it.skipIf(ageMissing !== null)(
    `writes a backup the real age tool decrypts, ending with a manifest of its content${ageMissing ? ` (skipped: ${ageMissing})` : ''}`,
    async () => {
      execFileSync('age-keygen', ['-o', file('identity.txt')], { stdio: 'ignore' });
      const recipient = /public key: (age1\w+)/.exec(readFileSync(file('identity.txt'), 'utf8'))![1]!;
      const alice = machine('alice');
      // Secrets to back up, pushed as a user would.
      expect((await alice('device', 'enroll', '--name', 'laptop')).code).toBe(0);
      writeFileSync(file('seed.env'), 'API_URL=https://api.example\nDB_PASSWORD="p@ss word\\n2"\n');
      expect((await alice('push', 'seed.env')).code).toBe(0);
      const made = await alice('backup', 'create', '--out', 'acme.age', '--recipient', recipient);
      expect(made.code).toBe(0);
      expect(made.stderr).toMatch(/^backing up: [\d.]+ MB received$/m);
      expect(made.stdout).toMatch(/secret\s+\d+/);
      expect(statSync(file('acme.age')).mode & 0o777).toBe(0o600);
      const plain = execFileSync('age', ['-d', '-i', file('identity.txt'), file('acme.age')]);
      const text = plain.toString('utf8');
      const body = text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1);
      const manifest = JSON.parse(text.slice(body.length)) as {
        kind: string;
        sha256: string;
        bytes: number;
        organization: string;
        counts: Record<string, number>;
      };
      expect(manifest).toMatchObject({
        kind: 'manifest',
        organization: 'acme',
        bytes: Buffer.byteLength(body),
      });
      expect(manifest.sha256).toBe(createHash('sha256').update(body).digest('hex'));
      const lines = body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind?: string; key?: string; value?: string });
      const secrets = lines.filter((l) => l.kind === 'secret');
      expect(manifest.counts['secret']).toBe(secrets.length);
      const server = (await api('GET', '/organizations/acme/projects/web/environments/prod/secrets')).json[
        'secrets'
      ] as {
        key: string;
        value: string;
      }[];
      for (const s of server) expect(secrets.find((l) => l.key === s.key)?.value).toBe(s.value);
      const events = lines.slice(lines.findIndex((l) => l.kind === 'events') + 1);
      expect(manifest.counts['event']).toBe(events.length);
      // A flipped byte or a cut file does not decrypt.
      const bytes = readFileSync(file('acme.age'));
      bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 1;
      writeFileSync(file('flipped.age'), bytes);
      expect(() =>
        execFileSync('age', ['-d', '-i', file('identity.txt'), file('flipped.age')], { stdio: 'pipe' }),
      ).toThrow();
      writeFileSync(file('cut.age'), readFileSync(file('acme.age')).subarray(0, 400));
      expect(() =>
        execFileSync('age', ['-d', '-i', file('identity.txt'), file('cut.age')], { stdio: 'pipe' }),
      ).toThrow();
    },
  );

  // A passphrase costs scrypt twice (the CLI's encryption, this test's decryption in JavaScript),
  // seconds of CPU each: 8.5 s alone, over the default 30 s once beside the whole suite on two cores.
  it('writes a passphrase backup, and refuses a developer (exit 4) and a bad choice of keys (exit 2)', {
    timeout: 90_000,
  }, async () => {
    writeFileSync(file('passphrase.txt'), 'correct horse battery staple\n');
    const alice = machine('alice');
    expect(
      (await alice('backup', 'create', '--out', 'p.age', '--passphrase-file', 'passphrase.txt')).code,
    ).toBe(0);
    const decrypter = new Decrypter();
    decrypter.addPassphrase('correct horse battery staple');
    const text = await decrypter.decrypt(readFileSync(file('p.age')), 'text');
    expect(text).toContain('"kind":"latchkey_backup"');
    expect(text.trimEnd().split('\n').at(-1)).toContain('"kind":"manifest"');
    const dev = machine('dev', state.developerToken);
    const refused = await dev('backup', 'create', '--out', 'd.age', '--passphrase-file', 'passphrase.txt');
    expect(refused.code).toBe(4);
    expect(existsSync(file('d.age'))).toBe(false);
    expect(existsSync(file('d.age.partial'))).toBe(false);
    expect((await alice('backup', 'create', '--out', 'x.age')).code).toBe(2);
    expect((await alice('backup', 'create', '--out', 'x.age', '--recipient', 'age1nope')).code).toBe(2);
  });

  it('talks TLS to a server with a certificate it trusts, and refuses one it does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-cli-tls-'));
    const certificate = makeLoopbackCertificate(dir);
    const secure = await startExample(
      'hono',
      {
        PORT: '0',
        LATCHKEY_BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        LATCHKEY_TLS_CERT: certificate.certFile,
        LATCHKEY_TLS_KEY: certificate.keyFile,
      },
      'bundle',
    );
    try {
      expect(secure.url).toMatch(/^https:\/\//);
      const trusting = machine('tls', TOKEN, {
        LATCHKEY_URL: secure.url,
        NODE_EXTRA_CA_CERTS: certificate.certFile,
      });
      const me = await trusting('whoami');
      expect(me.code).toBe(0);
      expect(me.stdout).toMatch(/^admin \(owner\) in acme/);
      const wary = machine('tls', TOKEN, { LATCHKEY_URL: secure.url });
      const refused = await wary('whoami');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Cannot reach https:\/\/localhost:\d+: \w*(CERT|SIGNATURE)\w*/);
    } finally {
      await stopExample(secure.child, 'SIGKILL');
    }
  });
});
