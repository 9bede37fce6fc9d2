/**
 * Verifiers written by others, for the signature scheme tests: the `standardwebhooks` and `svix`
 * libraries (symmetric), and for Ed25519 the real `openssl pkeyutl -verify -rawin` and Python's
 * `cryptography` (null when python3 or the package is absent, and CI does not demand it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A `whpk_` key as an SPKI PEM, as openssl reads it. */
function publicKeyPem(whpk: string): string {
  const der = Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(whpk.slice(5), 'base64')]);
  const lines = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN PUBLIC KEY-----\n${lines}\n-----END PUBLIC KEY-----\n`;
}

/**
 * Whether the libraries accept a standard-webhooks delivery, at `nowMs` (they read `Date.now`, so it
 * is set around the call). Answers one verdict per library.
 */
export function libraryVerdicts(
  secret: string,
  body: string,
  headers: Record<string, string>,
  nowMs?: number,
): { standardwebhooks: boolean; svix: boolean } {
  const attempt = (verify: () => unknown) => {
    const realNow = Date.now;
    if (nowMs !== undefined) Date.now = () => nowMs;
    try {
      verify();
      return true;
    } catch {
      return false;
    } finally {
      Date.now = realNow;
    }
  };
  return {
    standardwebhooks: attempt(() => new StandardWebhook(secret).verify(body, headers)),
    svix: attempt(() => new SvixWebhook(secret).verify(body, headers)),
  };
}

/** The `v1a` signatures of a `webhook-signature` header, as bytes. */
function ed25519Signatures(header: string): Buffer[] {
  return header
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .map((entry) => Buffer.from(entry.slice(4), 'base64'));
}

/** The signed content of a Standard Webhooks delivery: `<id>.<timestamp>.<body>`. */
function content(body: string, headers: Record<string, string>): Buffer {
  return Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`, 'utf8');
}

/** Whether the real openssl accepts one of the delivery's v1a signatures with `whpk`. */
export function opensslVerifies(whpk: string, body: string, headers: Record<string, string>): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-ed25519-'));
  try {
    writeFileSync(join(dir, 'key.pem'), publicKeyPem(whpk));
    writeFileSync(join(dir, 'content'), content(body, headers));
    return ed25519Signatures(headers['webhook-signature'] ?? '').some((signature) => {
      writeFileSync(join(dir, 'sig'), signature);
      const args = ['pkeyutl', '-verify', '-pubin', '-inkey', join(dir, 'key.pem'), '-rawin'];
      const run = spawnSync('openssl', [...args, '-in', join(dir, 'content'), '-sigfile', join(dir, 'sig')]);
      return run.status === 0;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PYTHON_CHECK = `
import base64, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.exceptions import InvalidSignature
key = Ed25519PublicKey.from_public_bytes(base64.b64decode(sys.argv[1][5:]))
content = sys.stdin.buffer.read()
ok = False
for entry in sys.argv[2].split(' '):
    if entry.startswith('v1a,'):
        try:
            key.verify(base64.b64decode(entry[4:]), content)
            ok = True
        except InvalidSignature:
            pass
print('ok' if ok else 'refused')
`;

/** Whether Python's `cryptography` is here (required when CI is set). */
export function pythonCryptographyPresent(): boolean {
  const run = spawnSync('python3', ['-c', 'import cryptography'], { stdio: 'ignore' });
  if (run.status !== 0 && process.env['CI']) throw new Error('python3 with cryptography is required in CI');
  return run.status === 0;
}

/** Whether Python's `cryptography` accepts one of the delivery's v1a signatures with `whpk`. */
export function pythonVerifies(whpk: string, body: string, headers: Record<string, string>): boolean {
  const out = execFileSync('python3', ['-c', PYTHON_CHECK, whpk, headers['webhook-signature'] ?? ''], {
    input: content(body, headers),
  });
  return out.toString().trim() === 'ok';
}

/** What a receiver built on an outside check answers for one delivery. */
export type OutsideVerdict = 'ok' | 'refused' | 'replayed';

/**
 * A receiver built on an outside check the way the Standard Webhooks specification tells receivers
 * to build one: the libraries check the signature and the timestamp window but remember nothing, so
 * the receiver keeps each accepted `webhook-id` (the specification's idempotency key) for the
 * 300 s window and refuses a repeat. Answers a verdict per delivery.
 */
export function outsideReceiver(
  check: (body: string, headers: Record<string, string>) => boolean,
  toleranceMs = 300_000,
): (body: string, headers: Record<string, string>) => OutsideVerdict {
  const seen = new Map<string, number>();
  return (body, headers) => {
    if (!check(body, headers)) return 'refused';
    const sentMs = 1000 * Number(headers['webhook-timestamp']);
    for (const [id, expiresMs] of seen) if (expiresMs < sentMs) seen.delete(id);
    const id = headers['webhook-id'] ?? '';
    if (seen.has(id)) return 'replayed';
    seen.set(id, sentMs + toleranceMs);
    return 'ok';
  };
}
