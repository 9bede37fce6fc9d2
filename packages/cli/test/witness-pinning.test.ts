/**
 * `latchkey activity witness` on its own terms, against the memory-store example: the log key is
 * pinned on first use and another one refused unless `--trust-new-key`; a recorded head the log
 * no longer reaches is a rewound log; a refused cosignature leaves the verified head recorded;
 * `witness-key` derives a stable name; `prove` refuses a bad SEQ as usage.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './cli-harness.js';

const world = useCliServer();
const stateFile = (machine: string) => join(world.work, machine, 'witness.json');
type State = Record<string, { verifier_key: string; tree_size: number; root_hash: string }>;
const readState = (machine: string) => JSON.parse(readFileSync(stateFile(machine), 'utf8')) as State;
const editState = (machine: string, edit: (head: State[string]) => void) => {
  const state = readState(machine);
  for (const head of Object.values(state)) edit(head);
  writeFileSync(stateFile(machine), JSON.stringify(state));
};

describe('latchkey activity witness', () => {
  it('pins the log key on first use and refuses another unless trusted', async () => {
    const witness = world.machine('pinning');
    const first = await witness('--json', 'activity', 'witness');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({ organization: 'acme', previous: null, consistent: true });
    const pinned = result.verifier_key as string;
    expect(pinned).toMatch(/\/acme\+[0-9a-f]{8}\+/);

    const other = `${pinned.split('+')[0]}+00000000+${Buffer.concat([Buffer.from([1]), Buffer.alloc(32, 7)]).toString('base64')}`;
    editState('pinning', (head) => {
      head.verifier_key = other;
    });
    const refused = await witness('activity', 'witness');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`not the pinned ${other}`);
    expect(readState('pinning')[Object.keys(readState('pinning'))[0]!]!.verifier_key).toBe(other);

    const trusted = await witness('activity', 'witness', '--trust-new-key');
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(Object.values(readState('pinning'))[0]!.verifier_key).toBe(pinned);
    const given = await world.machine('given')('activity', 'witness', '--verifier-key', other);
    expect(given.code).toBe(5);
  });

  it('moves from a pinned audit key to the organization’s note key the audit key signed, and only then', async () => {
    const witness = world.machine('moving');
    const first = JSON.parse((await witness('--json', 'activity', 'witness')).stdout);
    const checkpoint = (await world.api('GET', '/organizations/acme/activity/checkpoint')).json;
    // What a witness pinned before each log had a note key: the audit key under the origin name.
    const name = (first.verifier_key as string).split('+')[0]!;
    const audit = Buffer.from(checkpoint['public_key'] as string, 'base64url');
    const hash = createHash('sha256').update(`${name}\n`).update(Buffer.of(1)).update(audit).digest();
    const old = `${name}+${hash.subarray(0, 4).toString('hex')}+${Buffer.concat([Buffer.of(1), audit]).toString('base64')}`;
    expect(old).not.toBe(first.verifier_key);
    editState('moving', (head) => {
      head.verifier_key = old;
    });
    const moved = await witness('activity', 'witness');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain(`now signed by a key of its own, ${first.verifier_key}`);
    expect(Object.values(readState('moving'))[0]!.verifier_key).toBe(first.verifier_key);
    // `activity prove` with the audit key opens the note with the key the audit key signed.
    const proved = await witness(
      'activity',
      'prove',
      '1',
      '--public-key',
      checkpoint['public_key'] as string,
    );
    expect(proved.code, proved.stderr).toBe(0);
    expect(proved.stdout).toContain('Signed by the given audit key: valid');
  });

  it('names both heads when the log is shorter than the head it recorded', async () => {
    const witness = world.machine('rewound');
    expect((await witness('activity', 'witness')).code).toBe(0);
    const before = Object.values(readState('rewound'))[0]!;
    editState('rewound', (head) => {
      head.tree_size += 1000;
    });
    const rewound = await witness('activity', 'witness');
    expect(rewound.code).toBe(5);
    const json = JSON.parse((await witness('--json', 'activity', 'witness')).stdout);
    expect(json).toMatchObject({
      consistent: false,
      previous: { tree_size: before.tree_size + 1000 },
      current: { tree_size: expect.any(Number), root_hash: expect.any(String) },
    });
    expect(rewound.stderr).toMatch(
      new RegExp(
        `the log was rewound: last seen size ${before.tree_size + 1000}, root \\S+; now size \\d+, root \\S+\\.`,
      ),
    );
  });

  it('records the verified head even when the server refuses its cosignature', async () => {
    const keyFile = world.file('unregistered.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);
    const witness = world.machine('unregistered');
    const run = await witness('activity', 'witness', '--cosign', keyFile);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/registered witness/);
    expect(Object.values(readState('unregistered'))).toHaveLength(1);
  });

  it('derives a stable witness name from the key, and refuses a key that is not Ed25519', async () => {
    const keyFile = world.file('derived.pem');
    execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', keyFile]);
    const cli = world.machine('keys');
    const [a, b] = [
      await cli('--json', 'activity', 'witness-key', keyFile),
      await cli('--json', 'activity', 'witness-key', keyFile),
    ];
    expect(a.stdout).toBe(b.stdout);
    const key = JSON.parse(a.stdout);
    expect(key.name).toMatch(/^latchkey-witness\/[0-9a-f]{16}$/);
    expect(Buffer.from(key.public_key, 'base64')).toHaveLength(32);
    const rsa = world.file('rsa.pem');
    writeFileSync(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    );
    const refused = await cli('activity', 'witness-key', rsa);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not an Ed25519 private key');
    expect((await cli('activity', 'witness-key', keyFile, '--name', 'has space')).code).toBe(2);
  });
});

describe('latchkey activity prove', () => {
  it('refuses a SEQ that is not a positive integer, and fails on one past the log', async () => {
    const cli = world.machine('prover');
    expect((await cli('activity', 'prove', '0')).code).toBe(2);
    expect((await cli('activity', 'prove', 'x1')).code).toBe(2);
    const missing = await cli('activity', 'prove', '999999');
    expect(missing.code).toBe(1);
  });
});
