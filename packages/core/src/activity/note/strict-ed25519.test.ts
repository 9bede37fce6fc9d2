import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { MIXED_ORDER, SMALL_ORDER_CANONICAL } from '@latchkey/test-vectors/ed25519-weak-keys';
import { describe, expect, it } from 'vitest';
import { openCheckpoint } from '../../client/open-checkpoint.js';
import { toAuditKey } from '../checkpoint/checkpoint.js';
import { signCheckpointNote } from '../checkpoint/checkpoint-note.js';
import { verifyCosignature } from './cosignature.js';
import { verifyEd25519 } from './note-key.js';
import { parseSignatureLine } from './signed-note.js';
import { isStrictEd25519 } from './strict-ed25519.js';

const IDENTITY = Buffer.from(SMALL_ORDER_CANONICAL[0]!, 'hex');
/** R = the identity point, S = 0: with the identity as public key, it satisfies the equation for any message. */
const TRIVIAL_SIGNATURE = Buffer.concat([IDENTITY, Buffer.alloc(32)]);
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** A cosignature line by `publicKey` under `name`, its Ed25519 signature given: written from the spec. */
function line(name: string, publicKey: Buffer, signature: Buffer, time = 1_700_000_000n) {
  const hash = createHash('sha256').update(`${name}\n`).update(Buffer.of(4)).update(publicKey).digest();
  const t = Buffer.alloc(8);
  t.writeBigUInt64BE(time);
  return `\u2014 ${name} ${Buffer.concat([hash.subarray(0, 4), t, signature]).toString('base64')}`;
}

async function signedNote() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const note = await signCheckpointNote(toAuditKey(privateKey), 'logs.example.com/acme', {
    size: 3,
    rootHash: new Uint8Array(32).fill(7),
  });
  return { ...note, text: `${note.body}\n${note.signatureLine}` };
}

describe('strict Ed25519 for notes and cosignatures', () => {
  it('a small-order witness key with R = identity, S = 0 counts towards no quorum', async () => {
    const log = await signedNote();
    const witness = { name: 'w.example/identity', publicKey: new Uint8Array(IDENTITY) };
    const note = `${log.text}${line(witness.name, IDENTITY, TRIVIAL_SIGNATURE)}\n`;
    const opened = await openCheckpoint({ note, key: log.verifierKey, witnesses: [witness], quorum: 1 });
    expect(opened).toMatchObject({ ok: false, fault: 'bad_key' });
    expect(opened.ok ? '' : opened.message).toContain('weak Ed25519 key');
    // The primitive refuses it too, so the server's cosignature check does as well.
    const parsed = parseSignatureLine(line(witness.name, IDENTITY, TRIVIAL_SIGNATURE))!;
    expect(await verifyCosignature(log.body, parsed, witness)).toBeNull();
    expect(await verifyEd25519(witness.publicKey, new Uint8Array(8), TRIVIAL_SIGNATURE)).toBe(false);
  });

  it('refuses every small-order and mixed-order key, a small-order R and an S not below L', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const good = sign(null, Buffer.from('m'), privateKey);
    expect(isStrictEd25519(raw, good)).toBe(true);
    for (const weak of [...SMALL_ORDER_CANONICAL, ...MIXED_ORDER])
      expect(isStrictEd25519(Buffer.from(weak, 'hex'), good)).toBe(false);
    for (const r of SMALL_ORDER_CANONICAL)
      expect(isStrictEd25519(raw, Buffer.concat([Buffer.from(r, 'hex'), good.subarray(32)]))).toBe(false);
    // S + L: the same residue, another encoding, so one signature would have two forms.
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(good[i]!);
    const high = Buffer.alloc(32);
    let v = s + L;
    for (let i = 0; i < 32; i++, v >>= 8n) high[i] = Number(v & 0xffn);
    expect(isStrictEd25519(raw, Buffer.concat([good.subarray(0, 32), high]))).toBe(false);
  });

  it('a listed witness’s line that does not verify fails the note; unlisted lines are counted', async () => {
    const log = await signedNote();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const name = 'w.example/real';
    const time = 1_700_000_000n;
    const good = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${log.body}`), privateKey);
    const stranger = line('w.example/invented', Buffer.alloc(32, 1), Buffer.alloc(64, 2));
    const witnesses = [{ name, publicKey: new Uint8Array(raw) }];
    const ok = await openCheckpoint({
      note: `${log.text}${line(name, raw, good, time)}\n${stranger}\n`,
      key: log.verifierKey,
      witnesses,
      quorum: 1,
    });
    expect(ok).toMatchObject({ ok: true, cosignedBy: [{ name, timestamp: Number(time) }], unverified: 1 });
    const forged = Buffer.from(good);
    forged[40]! ^= 1;
    const bad = await openCheckpoint({
      note: `${log.text}${line(name, raw, forged, time)}\n`,
      key: log.verifierKey,
      witnesses,
    });
    expect(bad).toMatchObject({ ok: false, fault: 'bad_cosignature' });
  });
});
