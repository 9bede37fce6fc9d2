/**
 * `latchkey activity prove SEQ --out FILE` against the memory-store example: once the event, its
 * proof and the checkpoint note verify with the pinned key, the CLI writes a C2SP tlog-proof, and
 * Go's golang.org/x/mod/sumdb/note and tlog check that file offline with the pinned verifier key
 * alone; without a key nothing is written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goOfflineCheck, goOfflineMissing } from '@latchkey/test-utils';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './cli-harness.js';

const world = useCliServer();
const missing = goOfflineMissing();

describe('latchkey activity prove --out', () => {
  it('writes nothing without a key to check the note with', async () => {
    const out = world.file('unkeyed.tlog-proof');
    const run = await world.machine('unkeyed')('activity', 'prove', '1', '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--out writes only a verified proof');
    expect(existsSync(out)).toBe(false);
  });

  it.skipIf(missing !== null)('writes a tlog-proof that Go checks offline with the pinned key', async () => {
    const cli = world.machine('offline');
    const pinned = await cli('--json', 'activity', 'witness');
    expect(pinned.code, pinned.stderr).toBe(0);
    const vkey = JSON.parse(pinned.stdout).verifier_key as string;
    const out = world.file('event-2.tlog-proof');
    const proved = await cli('--json', 'activity', 'prove', '2', '--out', out);
    expect(proved.code, proved.stderr).toBe(0);
    const result = JSON.parse(proved.stdout);
    expect(result).toMatchObject({ included: true, seq: 2, proof_file: out, signature_checked: true });
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^c2sp\.org\/tlog-proof@v1\nextra [A-Za-z0-9+/=]+\nindex 1\n/);
    expect(text).toContain(`\n\n${vkey.split('+')[0]}\n${result.tree_size}\n${result.root_hash}\n\n\u2014 `);

    const extra = text.split('\n')[1]!.slice('extra '.length);
    const event = Buffer.from(extra, 'base64').toString('utf8');
    const forged = Buffer.from(event.replace(/"seq":2/, '"seq":2,"x":1')).toString('base64');
    const edited = join(world.work, 'edited.tlog-proof');
    writeFileSync(edited, text.replace(extra, forged));
    const [honest, refused] = goOfflineCheck(vkey, 'tlog-proof', [out, edited]);
    expect(honest, honest!.error).toMatchObject({ ok: true, entries: 1, tree_size: result.tree_size });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/CheckRecord/) });
  });
});
