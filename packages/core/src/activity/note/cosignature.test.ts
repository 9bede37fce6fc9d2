import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointBodyText, parseCheckpointBody } from './checkpoint-body.js';
import { cosignedMessage, verifyCosignature } from './cosignature.js';
import { parseSignatureLine } from './signed-note.js';

const BODY = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

/** A witness written from the spec text with node:crypto, not with the code under test. */
function specWitness(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const keyHash = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.of(4))
    .update(raw)
    .digest()
    .subarray(0, 4);
  const line = (body: string, time: bigint, hash = keyHash) => {
    const t = Buffer.alloc(8);
    t.writeBigUInt64BE(time);
    const signature = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${body}`), privateKey);
    return parseSignatureLine(`\u2014 ${name} ${Buffer.concat([hash, t, signature]).toString('base64')}`)!;
  };
  return { key: { name, publicKey: new Uint8Array(raw) }, line };
}

describe('tlog-cosignature/v1', () => {
  it('signs the spec’s message: header, time line, then the whole checkpoint body', () => {
    expect(new TextDecoder().decode(cosignedMessage(BODY, 1679315147n))).toBe(
      `cosignature/v1\ntime 1679315147\n${BODY}`,
    );
  });

  it('verifies a spec-made cosignature and gives its timestamp', async () => {
    const w = specWitness('witness.example.com/w1');
    expect(await verifyCosignature(BODY, w.line(BODY, 1679315147n), w.key)).toBe(1679315147n);
  });

  it('refuses another body, another time, another name, a wrong key hash, another key', async () => {
    const w = specWitness('witness.example.com/w1');
    const line = w.line(BODY, 1679315147n);
    expect(await verifyCosignature(BODY.replace('20852163', '20852164'), line, w.key)).toBeNull();
    const shifted = { ...line, signature: line.signature.slice() };
    shifted.signature[7]! ^= 1; // the timestamp's last byte
    expect(await verifyCosignature(BODY, shifted, w.key)).toBeNull();
    expect(await verifyCosignature(BODY, line, { ...w.key, name: 'witness.example.com/w2' })).toBeNull();
    expect(await verifyCosignature(BODY, w.line(BODY, 1n, Buffer.alloc(4)), w.key)).toBeNull();
    expect(await verifyCosignature(BODY, line, specWitness('witness.example.com/w1').key)).toBeNull();
    // A plain Ed25519 note signature (algorithm 0x01, no timestamp) is not a cosignature.
    expect(await verifyCosignature(BODY, { ...line, signature: line.signature.slice(8) }, w.key)).toBeNull();
  });
});

describe('checkpoint bodies', () => {
  it('round-trip, and refuse what is not one spelling of a tree head', () => {
    const root = new Uint8Array(32).fill(7);
    const text = checkpointBodyText('log.example/acme', 42, root);
    expect(text).toBe(`log.example/acme\n42\n${Buffer.from(root).toString('base64')}\n`);
    expect(parseCheckpointBody(text)).toEqual({
      origin: 'log.example/acme',
      treeSize: 42,
      rootHash: root,
      extensions: [],
    });
    expect(parseCheckpointBody(BODY)?.treeSize).toBe(20852163);
    for (const bad of [
      text.slice(0, -1),
      text.replace('\n42\n', '\n042\n'),
      text.replace('\n42\n', '\n-1\n'),
      text.replace('\n42\n', '\n4.2\n'),
      text.replace(/\n[^\n]+\n$/, '\nAAAA\n'),
      `\n42\n${Buffer.from(root).toString('base64')}\n`,
    ]) {
      expect(parseCheckpointBody(bad), bad).toBeNull();
    }
    expect(parseCheckpointBody(`${text}ext line\n`)?.extensions).toEqual(['ext line']);
    expect(() => checkpointBodyText('a\nb', 1, root)).toThrow(RangeError);
  });
});
