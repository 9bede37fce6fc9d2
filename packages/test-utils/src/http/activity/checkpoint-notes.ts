/**
 * Item: checkpoints as C2SP notes, witnesses and cosignatures. `GET …/activity/checkpoint` adds the
 * signed note of the same head (and with Accept: text/plain is the note alone); the owner registers
 * witnesses (`witness-registration.ts`); a registered witness's tlog-cosignature/v1 of a head this log had is kept and served
 * in that head's note, and `openCheckpoint` counts it towards a quorum; anything else is refused.
 * The cosignatures here are made by the test from the spec, not by the server's code.
 */
import { createPublicKey, verify } from 'node:crypto';
import { openCheckpoint, verifyCheckpoint } from '@latchkey/core/client';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import { ADMIN, type ConformanceContext, OTHER_ORG_ADMIN } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import { witness } from './witness-signer.js';

const CHECKPOINT = '/api/v2/organizations/acme/activity/checkpoint';
const WITNESSES = '/api/v2/organizations/acme/activity/witnesses';

interface CheckpointJson {
  organization: string;
  seq: number;
  hash: string;
  key_id: string;
  signature: string;
  signed_at: string;
  public_key: string;
  tree_size: number;
  root_hash: string;
  verifier_key: string;
  note: string;
  cosignatures: { witness: string; timestamp: number }[];
}

/** Registers the checkpoint note tests. */
export function describeCheckpointNoteTests(ctx: ConformanceContext): void {
  const kit = checkpointNoteKit(ctx);
  describe('checkpoint notes', () => {
    noteTests(kit);
    cosignatureTests(kit);
  });
}

type CheckpointNoteKit = ReturnType<typeof checkpointNoteKit>;

/** What the note tests share: the conformance context and the current checkpoint, fetched and checked. */
function checkpointNoteKit(ctx: ConformanceContext) {
  const current = async () => {
    const answer = await ctx.send('GET', CHECKPOINT, undefined, ADMIN);
    expect(answer.status, answer.text).toBe(200);
    const json = answer.json as CheckpointJson;
    return {
      json,
      body: json.note.slice(0, json.note.indexOf('\n\n') + 1),
      time: Math.floor(Date.parse(json.signed_at) / 1000),
    };
  };
  return { ctx, current };
}

/** The signed note of a checkpoint, and a relabelled note that does not verify. */
function noteTests(kit: CheckpointNoteKit): void {
  const { ctx, current } = kit;
  it('the checkpoint carries the signed note of its own head; Accept: text/plain is the note alone', async () => {
    const { json, body } = await current();
    expect(json.tree_size).toBe(json.seq);
    expect(body).toBe(`latchkey.local/acme\n${json.tree_size}\n${json.root_hash}\n`);
    expect(json.verifier_key).toMatch(/^latchkey\.local\/acme\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/);
    const byVkey = await openCheckpoint({ note: json.note, key: json.verifier_key });
    expect(byVkey).toMatchObject({ ok: true, origin: 'latchkey.local/acme', treeSize: json.tree_size });
    // The note key is the organization's own, not the audit key; the audit key signs it into the JSON.
    const publicKey = json.public_key; // base64url, as the JSON gives it
    expect(
      await openCheckpoint({ note: json.note, key: { name: 'latchkey.local/acme', publicKey } }),
    ).toMatchObject({ ok: false, fault: 'unsigned' });
    expect(verifyCheckpoint(json, publicKey)).toBe(true);
    const otherKey = `${json.verifier_key.slice(0, -2)}${json.verifier_key.endsWith('A=') ? 'B' : 'A'}=`;
    expect(verifyCheckpoint({ ...json, verifier_key: otherKey }, publicKey)).toBe(false);
    const plain = await ctx.send('GET', CHECKPOINT, undefined, ADMIN, { accept: 'text/plain' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(plain.text).toBe(json.note);
    const preferred = await ctx.send('GET', CHECKPOINT, undefined, ADMIN, {
      accept: 'application/json, text/plain;q=0.5',
    });
    expect((preferred.json as CheckpointJson).note).toBe(json.note);
    // Another log's key, or a rewritten size, does not open it.
    const other = witness('latchkey.local/acme');
    expect(
      await openCheckpoint({ note: json.note, key: { name: other.name, publicKey: other.publicKey } }),
    ).toMatchObject({ ok: false, fault: 'unsigned' });
    const rewritten = json.note.replace(`\n${json.tree_size}\n`, `\n${json.tree_size + 1}\n`);
    expect(await openCheckpoint({ note: rewritten, key: json.verifier_key })).toMatchObject({
      ok: false,
      fault: 'bad_signature',
    });
  });

  it('a note of one organization, relabelled as another’s, does not verify under the other’s verifier key', async () => {
    const { json: acme } = await current();
    const answer = await ctx.send(
      'GET',
      CHECKPOINT.replace('/acme/', '/globex/'),
      undefined,
      OTHER_ORG_ADMIN,
    );
    expect(answer.status, answer.text).toBe(200);
    const globex = answer.json as CheckpointJson;
    expect(globex.public_key).toBe(acme.public_key); // one audit key ...
    const [name, hash, encoded] = globex.verifier_key.split(/\+(?=.)/, 3) as [string, string, string];
    expect(name).toBe('latchkey.local/globex');
    const vkeyOf = (vkey: string) =>
      Buffer.from(vkey.slice(vkey.indexOf('+', vkey.indexOf('+') + 1) + 1), 'base64').subarray(1);
    expect(vkeyOf(globex.verifier_key)).not.toEqual(vkeyOf(acme.verifier_key)); // ... a note key per organization
    // Relabel: acme's text and signature under globex's key name and key hash, as Go's note.Open
    // would look the signature up (name and hash), then check the signature over the text alone.
    const split = acme.note.indexOf('\n\n') + 1;
    const text = acme.note.slice(0, split);
    const value = Buffer.from(
      acme.note
        .slice(split + 1)
        .split('\n')[0]!
        .split(' ')[2]!,
      'base64',
    );
    const relabelled = `${text}\n\u2014 ${name} ${Buffer.concat([Buffer.from(hash, 'hex'), value.subarray(4)]).toString('base64')}\n`;
    const spki = (raw: Buffer) =>
      createPublicKey({
        key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
        format: 'der',
        type: 'spki',
      });
    expect(verify(null, Buffer.from(text), spki(vkeyOf(acme.verifier_key)), value.subarray(4))).toBe(true);
    expect(verify(null, Buffer.from(text), spki(vkeyOf(globex.verifier_key)), value.subarray(4))).toBe(false);
    expect(await openCheckpoint({ note: relabelled, key: globex.verifier_key })).toMatchObject({
      ok: false,
    });
    expect(encoded.startsWith('A')).toBe(true);
  });
}

/** A registered witness’s cosignature, kept, served and checked. */
function cosignatureTests(kit: CheckpointNoteKit): void {
  const { ctx, current } = kit;
  it('keeps a registered witness’s valid cosignature of a head the log had, serves it, and refuses the rest', async () => {
    const a = witness('a.witness.example/notes');
    const b = witness('b.witness.example/notes');
    const stranger = witness('stranger.example/notes');
    for (const w of [a, b]) {
      expect(
        (await ctx.send('POST', WITNESSES, { name: w.name, public_key: w.publicKey }, ADMIN)).status,
      ).toBe(201);
    }
    const { json, body, time } = await current();
    const post = (payload: unknown) => ctx.send('POST', `${CHECKPOINT}/cosignatures`, payload, ADMIN);
    const line = a.cosign(body, time);
    const kept = await post({ cosignature: line, checkpoint: body });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json).toEqual({
      cosignatures: [
        { witness: a.name, tree_size: json.tree_size, root_hash: json.root_hash, timestamp: time },
      ],
    });
    // A whole cosigned note works too, and the log's own line in it is ignored.
    expect((await post({ cosignature: `${json.note}${b.cosign(body, time)}\n` })).status).toBe(200);
    const after = await current();
    expect(after.json.tree_size).toBe(json.tree_size);
    expect(after.json.cosignatures.map((c) => c.witness).sort()).toEqual([a.name, b.name]);
    const keys = [a, b].map((w) => ({ name: w.name, publicKey: w.publicKey }));
    expect(
      await openCheckpoint({ note: after.json.note, key: json.verifier_key, witnesses: keys, quorum: 2 }),
    ).toMatchObject({
      ok: true,
      cosignedBy: [
        { name: a.name, timestamp: time },
        { name: b.name, timestamp: time },
      ],
    });
    expect(
      await openCheckpoint({
        note: after.json.note,
        key: json.verifier_key,
        witnesses: [keys[0]!, keys[0]!],
        quorum: 2,
      }),
    ).toMatchObject({ ok: false, fault: 'quorum_not_met' });

    const refused = async (payload: unknown) => expectError(await post(payload), 422, 'cosignature_invalid');
    await refused({ cosignature: stranger.cosign(body, time), checkpoint: body });
    await refused({
      cosignature: a.cosign(body, time).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      checkpoint: body,
    });
    const forged = body.replace(json.root_hash, Buffer.alloc(32).toString('base64'));
    await refused({ cosignature: a.cosign(forged, time), checkpoint: forged });
    const ahead = `latchkey.local/acme\n${json.tree_size + 100}\n${json.root_hash}\n`;
    await refused({ cosignature: a.cosign(ahead, time), checkpoint: ahead });
    const elsewhere = body.replace('latchkey.local/acme', 'latchkey.local/other');
    await refused({ cosignature: a.cosign(elsewhere, time), checkpoint: elsewhere });
    await refused({ cosignature: a.cosign(body, time + 3600), checkpoint: body });
    await refused({ cosignature: 'not a line' });
    expectError(
      await ctx.send(
        'POST',
        `${CHECKPOINT}/cosignatures`,
        { cosignature: line, checkpoint: body },
        ctx.developer.token,
      ),
      403,
      'forbidden',
    );
    // Once the log moves on, the cosigned head is still served with its cosignatures by its size.
    const third = { name: stranger.name, public_key: stranger.publicKey };
    expect((await ctx.send('POST', WITNESSES, third, ADMIN)).status).toBe(201);
    expect((await current()).json.tree_size).toBe(json.tree_size + 1);
    const past = await ctx.send('GET', `${CHECKPOINT}?tree_size=${json.tree_size}`, undefined, ADMIN, {
      accept: 'text/plain',
    });
    expect(past.text).toBe(after.json.note);
    const beyond = `${CHECKPOINT}?tree_size=${json.tree_size + 2}`;
    expectError(await ctx.send('GET', beyond, undefined, ADMIN), 400, 'invalid_request');
    expectError(
      await ctx.send('GET', `${CHECKPOINT}?tree_size=-1`, undefined, ADMIN),
      400,
      'invalid_request',
    );
    for (const w of [a, b, stranger]) {
      await ctx.send('DELETE', `${WITNESSES}/${encodeURIComponent(w.name)}`, undefined, ADMIN);
    }
  });
}
