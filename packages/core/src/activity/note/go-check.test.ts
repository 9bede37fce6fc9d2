/**
 * The outside check of checkpoint notes: Go's golang.org/x/mod/sumdb/note (`note.Open` with the
 * verifier key the API prints) accepts the server's notes and refuses tampered ones; a witness
 * cosignature made by Go from the C2SP spec is taken by the server, served in the note, and
 * verified by Go and by `openCheckpoint`. Needs Go and Debian's golang-golang-x-mod-dev (GOPATH
 * mode); with CI=true their absence fails the suite.
 */
import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cosignCheckpoint } from '../../client/cosign-checkpoint.js';
import { openCheckpoint } from '../../client/open-checkpoint.js';
import { createCore } from '../../core.js';
import { generateAuditKey } from '../checkpoint/checkpoint.js';

const GOPATH = '/usr/share/gocode';
const GO = spawnSync('go', ['version']).status === 0;
const X_MOD = existsSync(join(GOPATH, 'src/golang.org/x/mod/sumdb/note/note.go'));
if ((!GO || !X_MOD) && process.env['CI'] === 'true') {
  throw new Error(
    'The note check needs Go and golang.org/x/mod (Debian: golang-go golang-golang-x-mod-dev).',
  );
}

const PROGRAM = join(dirname(fileURLToPath(import.meta.url)), 'go-check', 'main.go');
const TOKEN = 'lk_go_check_test_token_00000000000000000000';
const WITNESS = { name: 'witness.example.org/w1', seed: Buffer.alloc(32, 9).toString('base64') };

interface GoAnswer {
  opened: { ok: boolean; error?: string; text?: string; cosignatures: number[] }[];
  cosignature: string;
  witness_public_key: string;
}

// One build cache for the file's runs (the note package compiles once), removed at the end.
const goCache = mkdtempSync(join(tmpdir(), 'latchkey-gocache-'));
afterAll(() => rmSync(goCache, { recursive: true, force: true }));

function go(input: { vkey: string; notes: string[]; cosign?: string; time?: number }): GoAnswer {
  const run = spawnSync('go', ['run', PROGRAM], {
    input: JSON.stringify({ witness: WITNESS, cosign: '', time: 0, ...input }),
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH,
      GOCACHE: goCache,
      GOFLAGS: '',
    },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as GoAnswer;
}

/** PKCS#8 DER of an Ed25519 seed (base64). */
const pkcs8 = (seed: string): Buffer =>
  Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed, 'base64')]);

/** The witness's raw public key, from its seed (PKCS#8 of an Ed25519 seed, then the SPKI's last 32 bytes). */
function witnessPublicKey(): string {
  const key = createPrivateKey({ key: pkcs8(WITNESS.seed), format: 'der', type: 'pkcs8' });
  return createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
}

describe.skipIf(!GO || !X_MOD)('checkpoint notes, checked by Go', () => {
  it('note.Open accepts the note and refuses tampered ones; a Go-made cosignature is kept and verifies', async () => {
    const core = createCore({
      auditKey: generateAuditKey().privateKeyPem,
      checkpointOrigin: 'logs.example.com',
    });
    await core.bootstrap({ organization: 'acme', user: 'owner', token: TOKEN });
    const send = async (method: string, path: string, body?: unknown, accept?: string) => {
      const answer = await core.handle({
        method,
        url: `/api/v2/organizations/acme${path}`,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(accept ? { accept } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, text: answer.body as string };
    };
    for (const slug of ['a', 'b', 'c']) expect((await send('POST', '/projects', { slug })).status).toBe(201);
    // Registering a witness is an event: register first, so the head it cosigns is the current one.
    const witness = { name: WITNESS.name, public_key: witnessPublicKey() };
    expect((await send('POST', '/activity/witnesses', witness)).status).toBe(201);
    const checkpoint = JSON.parse((await send('GET', '/activity/checkpoint')).text);
    const { note, verifier_key: vkey } = checkpoint as { note: string; verifier_key: string };
    const [body] = note.split('\n\n') as [string];
    const lines = note.split('\n');
    const tampered = [
      note.replace(`\n${checkpoint.tree_size}\n`, `\n${checkpoint.tree_size + 1}\n`),
      note.replace(
        lines[2]!,
        `${lines[2]!.slice(0, 5)}${lines[2]![5] === 'A' ? 'B' : 'A'}${lines[2]!.slice(6)}`,
      ),
      note.replace('logs.example.com/acme\n', 'logs.example.com/acme2\n'),
      note.replace(/(\u2014 \S+ \S{10})(\S)/, (_, head: string, c: string) => head + (c === 'A' ? 'B' : 'A')),
    ];
    const time = Math.floor(Date.now() / 1000);
    const checked = go({ vkey, notes: [note, ...tampered], cosign: `${body}\n`, time });
    expect(checked.opened[0]).toMatchObject({ ok: true, text: `${body}\n` });
    for (const refused of checked.opened.slice(1)) expect(refused.ok).toBe(false);

    expect(checked.witness_public_key).toBe(witness.public_key);
    const posted = await send('POST', '/activity/checkpoint/cosignatures', {
      cosignature: checked.cosignature,
      checkpoint: `${body}\n`,
    });
    expect(posted.status, posted.text).toBe(200);
    const plain = await send('GET', '/activity/checkpoint', undefined, 'text/plain');
    expect(plain.text).toBe(`${note}${checked.cosignature}\n`);
    const again = go({ vkey, notes: [plain.text] });
    expect(again.opened[0]).toMatchObject({ ok: true, cosignatures: [time] });

    // And the other way: a cosignature made by cosignCheckpoint (WebCrypto) verifies in Go.
    const seedKey = await crypto.subtle.importKey(
      'pkcs8',
      new Uint8Array(pkcs8(WITNESS.seed)),
      { name: 'Ed25519' },
      false,
      ['sign'],
    );
    const ours = await cosignCheckpoint({
      note,
      name: WITNESS.name,
      privateKey: seedKey,
      publicKey: Buffer.from(witness.public_key, 'base64'),
      timestamp: time + 1,
    });
    expect(go({ vkey, notes: [`${note}${ours}\n`] }).opened[0]).toMatchObject({
      ok: true,
      cosignatures: [time + 1],
    });

    const opened = await openCheckpoint({
      note: plain.text,
      key: vkey,
      witnesses: [{ name: WITNESS.name, publicKey: checked.witness_public_key }],
      quorum: 1,
    });
    expect(opened).toMatchObject({
      ok: true,
      treeSize: checkpoint.tree_size,
      cosignedBy: [{ name: WITNESS.name, timestamp: time }],
    });
  }, 120_000);

  it('note.Open refuses one organization’s note relabelled under another’s verifier key', async () => {
    const core = createCore({
      auditKey: generateAuditKey().privateKeyPem,
      checkpointOrigin: 'logs.example.com',
    });
    const other = 'lk_go_check_test_token_globex_000000000000';
    await core.bootstrap({ organization: 'acme', user: 'owner', token: TOKEN });
    await core.bootstrap({ organization: 'globex', user: 'boss', token: other });
    const checkpointOf = async (organization: string, token: string) => {
      const answer = await core.handle({
        method: 'GET',
        url: `/api/v2/organizations/${organization}/activity/checkpoint`,
        headers: { authorization: `Bearer ${token}` },
      });
      return JSON.parse(answer.body as string) as { note: string; verifier_key: string };
    };
    const acme = await checkpointOf('acme', TOKEN);
    const globex = await checkpointOf('globex', other);
    // acme's text and signature, under globex's key name and key hash: what note.Open looks up.
    const [name, hash] = globex.verifier_key.split('+') as [string, string];
    const [text, signatures] = acme.note.split('\n\n') as [string, string];
    const value = Buffer.from(signatures.split(' ')[2]!, 'base64');
    const relabelled = `${text}\n\n\u2014 ${name} ${Buffer.concat([Buffer.from(hash, 'hex'), value.subarray(4)]).toString('base64')}\n`;
    const checked = go({ vkey: globex.verifier_key, notes: [globex.note, relabelled] });
    expect(checked.opened[0]).toMatchObject({ ok: true });
    expect(checked.opened[1]).toMatchObject({ ok: false });
    expect(go({ vkey: acme.verifier_key, notes: [acme.note] }).opened[0]).toMatchObject({ ok: true });
  }, 120_000);
});
