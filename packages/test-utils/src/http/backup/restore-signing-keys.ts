/**
 * Item: restored webhook signing material is checked, on every store. The keys a backup's header
 * lists are Ed25519 key pairs whose public key is the private key's, at most one of them current,
 * none retiring more than 24 h after the restore (a rotation's grace period); otherwise 422
 * `backup_invalid` naming line 1, with the organization's keys as they were. A forced restore
 * replaces the organization's keys with the backup's, so no key of the replaced content signs on.
 */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import { type Line, linesOf, restoreHelpers } from './restore-helpers.js';

interface KeyRecord {
  id: string;
  public_key: string;
  private_key: string;
  created_at: string;
  retires_at: string | null;
}

/** An Ed25519 key pair as a backup lists it (`whpk_` and the raw public key in standard base64). */
function ed25519Pair(): { public_key: string; private_key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return {
    public_key: `whpk_${Buffer.from(x, 'base64url').toString('base64')}`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Registers the tests of restored signing keys. */
export function describeRestoreSigningKeyTests(ctx: ConformanceContext): void {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);
  const as = (slug: string, token: string) => (method: string, path: string, body?: unknown) =>
    ctx.send(method, `/api/v2/organizations/${slug}${path}`, body, token);
  /** An organization with an Ed25519 webhook whose key was rotated once: a current key and a retiring one. */
  const keyedOrganization = async (slug: string) => {
    const token = await newOrganization(slug);
    const send = as(slug, token);
    const hook = {
      name: 'keyed',
      url: `https://${PUBLIC_HOST}/${slug}`,
      signature_scheme: 'standard-webhooks-ed25519',
    };
    expect((await send('POST', '/audit-webhooks', hook)).status).toBe(201);
    expect((await send('POST', '/audit-webhooks/signing-keys/rotate')).status).toBe(200);
    return token;
  };
  const published = async (slug: string, token: string) => {
    const answer = await as(slug, token)('GET', '/audit-webhooks/signing-keys');
    expect(answer.status).toBe(200);
    return (answer.json as { signing_keys: { public_key: string }[] }).signing_keys
      .map((k) => k.public_key)
      .sort();
  };
  const storedKeys = async (slug: string) => {
    const organization = (await ctx.core.store.organizations.getBySlug(slug))!;
    const keys = await ctx.core.store.webhookSigningKeys.list(organization.id);
    return keys.map((k) => k.public_key).sort();
  };

  let fixture: Promise<Line[]> | undefined;
  const source = () => {
    fixture ??= (async () => linesOf(await backupOf('keys-src', await keyedOrganization('keys-src'))))();
    return fixture;
  };
  /** The source's lines with its header's keys changed by `edit`. */
  const withKeys = (lines: readonly Line[], edit: (keys: KeyRecord[]) => KeyRecord[]): Line[] => {
    const keys = structuredClone(lines[0]!['webhook_signing_keys'] as KeyRecord[]);
    return [{ ...lines[0]!, webhook_signing_keys: edit(keys) }, ...lines.slice(1)];
  };

  describe('restore signing keys', () => {
    it('refuses signing keys that are not Ed25519, not a pair, retire more than 24 h after the restore or are current twice, naming line 1', async () => {
      const lines = await source();
      const keys = lines[0]!['webhook_signing_keys'] as KeyRecord[];
      expect(keys.map((k) => k.retires_at === null)).toEqual([false, true]);
      const target = 'keys-refused';
      const token = await keyedOrganization(target);
      const before = await storedKeys(target);
      const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const cases: [string, (keys: KeyRecord[]) => KeyRecord[], RegExp][] = [
        [
          'a P-256 key',
          (k) => [k[0]!, { ...k[1]!, private_key: p256 }],
          /key 2 of 2 is an ec key, not Ed25519/,
        ],
        [
          'not a key',
          (k) => [{ ...k[0]!, private_key: 'not a key' }, k[1]!],
          /key 1 of 2 has a private key that is not a PEM key/,
        ],
        [
          'another public key',
          (k) => [k[0]!, { ...k[1]!, public_key: ed25519Pair().public_key }],
          /key 2 of 2 has a public key that is not the one its private key derives/,
        ],
        [
          'a retirement in 2099',
          (k) => [{ ...k[0]!, retires_at: '2099-01-01T00:00:00.000Z' }, k[1]!],
          /key 1 of 2 retires at 2099-01-01T00:00:00.000Z, more than 24 h after the restore/,
        ],
        [
          'two current keys',
          (k) => k.map((key) => ({ ...key, retires_at: null })),
          /more than one webhook signing key is current/,
        ],
      ];
      for (const [what, edit, message] of cases) {
        const answer = await restoreLines(target, token, withKeys(lines, edit), true);
        refused(answer, new RegExp(`^The backup is not valid: line 1: .*${message.source}`), what);
      }
      expect(await storedKeys(target)).toEqual(before);
      // A key of a pair made here, retiring within the day, restores.
      const fresh = { ...ed25519Pair(), id: 'whk_fresh', created_at: new Date().toISOString() };
      const retiring = { ...fresh, retires_at: new Date(Date.now() + 23 * 3_600_000).toISOString() };
      const answer = await restoreLines(
        target,
        token,
        withKeys(lines, (k) => [retiring, k[1]!]),
        true,
      );
      expect(answer.status, answer.text).toBe(200);
      expect(await published(target, token)).toEqual([fresh.public_key, keys[1]!.public_key].sort());
    });

    it('a forced restore replaces the organization’s signing keys instead of adding to them', async () => {
      const lines = await source();
      const backedUp = (lines[0]!['webhook_signing_keys'] as KeyRecord[]).map((k) => k.public_key).sort();
      const target = 'keys-replaced';
      const token = await keyedOrganization(target);
      const own = await published(target, token);
      expect(own).toHaveLength(2);
      const answer = await restoreLines(target, token, lines, true);
      expect(answer.status, answer.text).toBe(200);
      expect(await storedKeys(target)).toEqual(backedUp);
      expect(await published(target, token)).toEqual(backedUp);
      // A backup listing no keys leaves none: the next webhook to need one makes it.
      const { webhook_signing_keys: _keys, ...header } = lines[0]!;
      const without = await restoreLines(target, token, [header, ...lines.slice(1)], true);
      expect(without.status, without.text).toBe(200);
      expect(await storedKeys(target)).toEqual([]);
    });
  });
}
