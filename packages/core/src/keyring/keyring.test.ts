import { describe, expect, it } from 'vitest';
import {
  createKeyring,
  generateKeyringKey,
  MissingKeyError,
  missingKeyId,
  needsReseal,
  open,
  parseKeyring,
  reseal,
  seal,
  sealedKeyId,
} from './keyring.js';

const k1 = generateKeyringKey();
const k2 = generateKeyringKey();
const old = createKeyring({ current: 'k1', keys: { k1 } });
const rotated = parseKeyring(`k2:${k2}, k1:${k1}`);
const CONTEXT = 'audit_webhook:awh_1:signing_secret';
const SECRET = 'whsec_example-secret-value-é';

describe('the keyring', () => {
  it('seals and opens, a fresh nonce each time, the plaintext nowhere in the sealed form', () => {
    const a = seal(old, SECRET, CONTEXT);
    const b = seal(old, SECRET, CONTEXT);
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec_');
    expect(a.startsWith('lk1.k1.')).toBe(true);
    expect(open(old, a, CONTEXT)).toBe(SECRET);
  });

  it('rotates: new values use the current key, old ones still open, reseal moves them', () => {
    const sealedBefore = seal(old, SECRET, CONTEXT);
    expect(rotated.current).toBe('k2');
    expect(open(rotated, sealedBefore, CONTEXT)).toBe(SECRET);
    expect(needsReseal(rotated, sealedBefore)).toBe(true);
    const moved = reseal(rotated, sealedBefore, CONTEXT);
    expect(sealedKeyId(moved)).toBe('k2');
    expect(needsReseal(rotated, moved)).toBe(false);
    expect(open(rotated, moved, CONTEXT)).toBe(SECRET);
    // A value sealed under k2 does not open with a ring that lacks it: a 503 naming the key for the log.
    let refused: unknown;
    try {
      open(old, moved, CONTEXT);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(MissingKeyError);
    expect(refused).toMatchObject({ code: 'service_unavailable', status: 503, keyId: 'k2' });
    expect(missingKeyId(refused)).toBe('k2');
    expect((refused as MissingKeyError).headers()).toEqual({ 'retry-after': '30' });
  });

  it('refuses a value bound elsewhere, tampered with, or malformed, without echoing it', () => {
    const sealed = seal(old, SECRET, CONTEXT);
    const parts = sealed.split('.');
    const flip = (text: string) =>
      text[5] === 'A' ? `${text.slice(0, 5)}B${text.slice(6)}` : `${text.slice(0, 5)}A${text.slice(6)}`;
    const cases = [
      () => open(old, sealed, 'audit_webhook:awh_2:signing_secret'),
      () => open(old, [parts[0], parts[1], parts[2], flip(parts[3]!)].join('.'), CONTEXT),
      () => open(old, [parts[0], parts[1], flip(parts[2]!), parts[3]].join('.'), CONTEXT),
      () => open(old, sealed.slice(0, -4), CONTEXT),
      () => open(old, 'plain text', CONTEXT),
      () => open(old, 'lk1.k1.AAAA.AAAA', CONTEXT),
    ];
    for (const attempt of cases) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'internal_error', status: 500 });
      expect(String((caught as Error).message)).not.toContain(SECRET);
      expect(String((caught as Error).message)).not.toContain(parts[3]!);
    }
  });

  it.each([
    [{ current: 'k1', keys: { k1: 'c2hvcnQ=' } }, /not 32 bytes/],
    [{ current: 'k9', keys: { k1 } }, /not in it/],
    [{ current: 'bad id', keys: { 'bad id': k1 } }, /key id/],
  ])('refuses a bad keyring (%#)', (options, message) => {
    expect(() => createKeyring(options)).toThrow(message);
  });

  it.each(['', 'k1', ':abc', `k1:${k1},bad`, `k1:${k1},k1:${k2}`])('refuses the keyring text %j', (text) => {
    expect(() => parseKeyring(text)).toThrow(RangeError);
  });
});
