import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../../encoding/base64.js';
import { ALG_ED25519, keyHash, parseVerifierKey, verifierKey, verifyEd25519 } from './note-key.js';
import { formatNote, parseNote, parseSignatureLine } from './signed-note.js';

// Known answers from Go's golang.org/x/mod/sumdb/note tests (TestSign, TestNewVerifier).
const GO_SKEY = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const GO_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

const seed = fromBase64(GO_SKEY.split('+').slice(4).join('+'))!.slice(1);
const goPrivateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const goPublicKey = fromBase64(GO_VKEY.split('+')[2]!)!.slice(1);

describe('signed notes', () => {
  it('reproduce Go’s verifier key and signed note byte for byte', async () => {
    expect(await verifierKey('PeterNeumann', goPublicKey)).toBe(GO_VKEY);
    const signature = new Uint8Array(sign(null, Buffer.from(GO_TEXT), goPrivateKey));
    const hash = await keyHash('PeterNeumann', ALG_ED25519, goPublicKey);
    expect(formatNote(GO_TEXT, [{ name: 'PeterNeumann', keyHash: hash, signature }])).toBe(GO_NOTE);
  });

  it('parse Go’s note and verify its signature', async () => {
    const parsed = parseNote(GO_NOTE)!;
    expect(parsed.text).toBe(GO_TEXT);
    const [line] = parsed.signatures;
    const key = (await parseVerifierKey(GO_VKEY))!;
    expect(line!.keyHash).toEqual(key.keyHash);
    const bytes = new TextEncoder().encode(parsed.text);
    expect(await verifyEd25519(key.publicKey, bytes, line!.signature)).toBe(true);
    const tampered = new TextEncoder().encode(parsed.text.replace('answer', 'answeR'));
    expect(await verifyEd25519(key.publicKey, tampered, line!.signature)).toBe(false);
  });

  it('refuse verifier keys with a wrong hash, name or length', async () => {
    expect(await parseVerifierKey(GO_VKEY.replace('c74f20a3', 'c74f20a4'))).toBeNull();
    expect(await parseVerifierKey(GO_VKEY.replace('PeterNeumann', 'PeterNeuman'))).toBeNull();
    expect(await parseVerifierKey(`Peter+Neumann+${GO_VKEY.slice(13)}`)).toBeNull();
    expect(await parseVerifierKey(GO_VKEY.replace('+ARpc', '+BRpc'))).toBeNull();
    expect(await parseVerifierKey(`${GO_VKEY}AA==`)).toBeNull();
  });

  it('refuse malformed notes', () => {
    expect(parseNote(GO_TEXT)).toBeNull(); // no signature block
    expect(parseNote(GO_NOTE.slice(0, -1))).toBeNull(); // no final newline
    expect(parseNote(GO_NOTE.replace('\u2014', '-'))).toBeNull();
    expect(parseNote(GO_NOTE.replace('x08go', 'x08g'))).toBeNull(); // base64 of a wrong length
    expect(parseNote(`a\tb\n${GO_NOTE}`)).toBeNull(); // a control character
    expect(parseNote(`${GO_NOTE}garbage\n`)).toBeNull();
    expect(parseSignatureLine('\u2014 Peter+Neumann AAAAAAA=')).toBeNull();
    expect(parseSignatureLine('\u2014 Peter AAAA')).toBeNull(); // shorter than hash + 1 byte
  });

  it('keep base64 canonical', () => {
    expect(toBase64(Uint8Array.of(0xff, 0xfe))).toBe('//4=');
    expect(fromBase64('//4=')).toEqual(Uint8Array.of(0xff, 0xfe));
    expect(fromBase64('//5=')).toBeNull(); // stray bits
    expect(fromBase64('//4')).toBeNull();
  });
});
