import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCore } from '../core.js';
import { emptyBackupCounts } from '../model/backup-format.js';
import type { CoreRequest } from '../model/core-request.js';
import { auditKeyId, generateAuditKey, toAuditKey } from './checkpoint/checkpoint.js';
import { toTrustedAuditKeys } from './trusted-audit-keys.js';

const TOKEN = 'lk_trusted_audit_keys_test_token_000000000000';

const request = (method: string, url: string, body?: unknown): CoreRequest => ({
  method,
  url,
  headers: {
    authorization: `Bearer ${TOKEN}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

const MANIFEST = {
  sha256: '0'.repeat(64),
  bytes: 1,
  counts: emptyBackupCounts(),
};

describe('trusted audit keys', () => {
  it('takes raw base64url and SPKI PEM keys by key id, with the own key marked', () => {
    const other = generateAuditKey();
    const pem = createPublicKey(other.privateKeyPem).export({ format: 'pem', type: 'spki' }).toString();
    const own = toAuditKey(generateAuditKey().privateKeyPem);
    const keys = toTrustedAuditKeys(own, [pem]);
    expect(keys.get(auditKeyId(other.publicKey))).toEqual({ publicKey: other.publicKey, own: false });
    expect(keys.get(own.keyId)).toEqual({ publicKey: own.publicKey, own: true });
    expect(toTrustedAuditKeys(undefined, [other.publicKey]).get(auditKeyId(other.publicKey))).toBeDefined();
    expect(toTrustedAuditKeys(undefined).size).toBe(0);
  });

  it('refuses a listed key that is not an Ed25519 public key, without echoing it', () => {
    for (const bad of ['not-a-key', generateAuditKey().privateKeyPem, 'A'.repeat(43)]) {
      let message = '';
      try {
        toTrustedAuditKeys(undefined, [bad]);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^trustedAuditKeys\[0\] is not an Ed25519 public key/);
      expect(message).not.toContain(bad.slice(0, 20));
    }
  });

  it('without an audit key, a server makes no backups and, trusting no key, begins no restore (503)', async () => {
    const core = createCore();
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const backup = await core.handle(request('GET', '/api/v2/organizations/acme/backup'));
    expect(backup.status).toBe(503);
    expect(JSON.parse(backup.body as string).error.message).toMatch(/audit key/);
    const begun = await core.handle(
      request('POST', '/api/v2/organizations/acme/restores', { manifest: MANIFEST }),
    );
    expect(begun.status).toBe(503);
    expect(JSON.parse(begun.body as string).error.message).toMatch(/trusts none/);
    // Trusting another server's key is enough to restore that server's backups.
    const trusting = createCore({ trustedAuditKeys: [generateAuditKey().publicKey] });
    await trusting.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const open = await trusting.handle(
      request('POST', '/api/v2/organizations/acme/restores', { manifest: MANIFEST }),
    );
    expect(open.status).toBe(201);
  });
});
