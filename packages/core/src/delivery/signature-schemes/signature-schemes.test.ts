import { createWebhookVerifier } from '@latchkey/webhook-verifier';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { secretContext, signingKeyContext } from '../../keyring/contexts.js';
import { generateKeyringKey, parseKeyring, seal, sealedKeyId } from '../../keyring/keyring.js';
import { createMemoryStore } from '../../memory/index.js';
import { newSigningSecret, signEventJson } from '../signing.js';
import { ensureSigningKey, ROTATION_GRACE_MS, rotateSigningKey } from '../signing-keys.js';
import { signingMaterial } from '../signing-material.js';
import { newSigningKeyPair, newStandardSecret, signForScheme } from './index.js';

const NOW = 1_795_000_000;
const keyring = parseKeyring(`k1:${generateKeyringKey()}`);

describe('signForScheme', () => {
  it('latchkey is byte for byte what the sender sent before schemes, id first or not', () => {
    const secret = newSigningSecret();
    for (const json of ['{"id":"evt_1","type":"push_applied"}', '{"type":"push_applied","id":"evt_1"}']) {
      const before = signEventJson(json, 'evt_1', secret, NOW);
      const now = signForScheme({ scheme: 'latchkey', secret }, json, 'evt_1', NOW);
      expect(now.body).toBe(before.body);
      expect(now.headers).toEqual(before.headers);
      expect(Object.keys(now.headers)).toEqual(Object.keys(before.headers));
    }
  });

  it('the body is the same bytes under every scheme', async () => {
    const json = '{"type":"push_applied","id":"evt_2"}';
    const store = createMemoryStore();
    await store.organizations.create({
      id: 'org_1',
      slug: 'o',
      name: 'O',
      created_at: new Date(0).toISOString(),
    });
    await ensureSigningKey(store, keyring, (p) => `${p}_1`, 'org_1', new Date(0).toISOString());
    const webhook = {
      id: 'awh_1',
      organization_id: 'org_1',
      name: 'w',
      url: 'https://x.example',
      secret_sealed: '',
    };
    const ed = await signingMaterial(
      { keyring, store, now: () => NOW * 1000 },
      { ...webhook, signature_scheme: 'standard-webhooks-ed25519' },
    );
    const bodies = [
      signForScheme({ scheme: 'latchkey', secret: newSigningSecret() }, json, 'evt_2', NOW).body,
      signForScheme({ scheme: 'standard-webhooks', secrets: [newStandardSecret()] }, json, 'evt_2', NOW).body,
      signForScheme(ed, json, 'evt_2', NOW).body,
    ];
    expect(new Set(bodies).size).toBe(1);
  });
});

describe('signingMaterial, on an injected clock', () => {
  const id = 'awh_rot';
  const at = (ms: number) => new Date(ms).toISOString();
  const T = NOW * 1000;

  it('standard-webhooks: the previous secret signs beside the new one until its grace period ends', async () => {
    const [older, newer] = [newStandardSecret(), newStandardSecret()];
    const webhook = {
      id,
      organization_id: 'org_1',
      name: 'w',
      url: 'https://x.example',
      secret_sealed: seal(keyring, newer, secretContext(id)),
      signature_scheme: 'standard-webhooks' as const,
      previous_secret: { sealed: seal(keyring, older, secretContext(id)), until: at(T + ROTATION_GRACE_MS) },
    };
    const during = await signingMaterial({ keyring, now: () => T + ROTATION_GRACE_MS - 1 }, webhook);
    expect(during).toEqual({ scheme: 'standard-webhooks', secrets: [newer, older] });
    const after = await signingMaterial({ keyring, now: () => T + ROTATION_GRACE_MS }, webhook);
    expect(after).toEqual({ scheme: 'standard-webhooks', secrets: [newer] });
    const body = '{"id":"evt_3"}';
    // The library reads the real clock: sign at the real time.
    const signed = signForScheme(during, body, 'evt_3', Math.floor(Date.now() / 1000));
    for (const secret of [older, newer]) {
      expect(new StandardWebhook(secret).verify(body, signed.headers) as unknown).toEqual({ id: 'evt_3' });
    }
  });

  it('ed25519: during the grace period both keys sign, after it only the new one', async () => {
    const store = createMemoryStore();
    await store.organizations.create({ id: 'org_2', slug: 'o2', name: 'O', created_at: at(0) });
    const ids = (() => {
      let n = 0;
      return (prefix: string) => `${prefix}_${++n}`;
    })();
    const first = await ensureSigningKey(store, keyring, ids, 'org_2', at(T - 1000));
    const { current } = await rotateSigningKey(store, keyring, ids, 'org_2', at(T));
    // Sealed at rest with the keyring, never the PEM in clear.
    expect(first.private_key_sealed).not.toContain('PRIVATE');
    expect(sealedKeyId(first.private_key_sealed)).toBe('k1');
    const webhook = {
      id,
      organization_id: 'org_2',
      name: 'w',
      url: 'https://x.example',
      secret_sealed: '',
      signature_scheme: 'standard-webhooks-ed25519' as const,
    };
    const verdicts = async (nowMs: number) => {
      const material = await signingMaterial({ keyring, store, now: () => nowMs }, webhook);
      const signed = signForScheme(material, '{"id":"evt_4"}', 'evt_4', Math.floor(nowMs / 1000));
      const check = (key: string) =>
        createWebhookVerifier({ publicKey: key, now: () => nowMs })
          .safeVerify(signed.body, signed.headers)
          .then((r) => r.ok);
      return [await check(first.public_key), await check(current.public_key)];
    };
    expect(await verdicts(T + ROTATION_GRACE_MS - 1_000)).toEqual([true, true]);
    expect(await verdicts(T + ROTATION_GRACE_MS)).toEqual([false, true]);
  });

  it('ed25519: of many keys a store holds signing (a restore), the current one and the newest retiring one sign', async () => {
    const store = createMemoryStore();
    await store.organizations.create({ id: 'org_3', slug: 'o3', name: 'O', created_at: at(0) });
    const key = (n: number, retiresAt: string | null) => {
      const pair = newSigningKeyPair();
      const keyId = `whk_${n}`;
      return {
        id: keyId,
        organization_id: 'org_3',
        public_key: pair.publicKey,
        private_key_sealed: seal(keyring, pair.privateKey, signingKeyContext(keyId)),
        created_at: at(T - (100 - n) * 1000),
        retires_at: retiresAt,
      };
    };
    const retiring = Array.from({ length: 40 }, (_, n) => key(n, at(T + ROTATION_GRACE_MS)));
    const current = key(50, null);
    await store.webhookSigningKeys.insertMany([...retiring, current]);
    const webhook = {
      id,
      organization_id: 'org_3',
      name: 'w',
      url: 'https://x.example',
      secret_sealed: '',
      signature_scheme: 'standard-webhooks-ed25519' as const,
    };
    const material = await signingMaterial({ keyring, store, now: () => T }, webhook);
    const signed = signForScheme(material, '{"id":"evt_5"}', 'evt_5', Math.floor(T / 1000));
    expect(signed.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    const verifies = (publicKey: string) =>
      createWebhookVerifier({ publicKey, now: () => T })
        .safeVerify(signed.body, signed.headers)
        .then((r) => r.ok);
    expect(await verifies(current.public_key)).toBe(true);
    expect(await verifies(retiring.at(-1)!.public_key)).toBe(true);
    expect(await verifies(retiring[0]!.public_key)).toBe(false);
  });
});
