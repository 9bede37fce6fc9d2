/** A pull opens what a push sealed, passes through what predates the keyring, and names no value on a failure. */
import { describe, expect, it } from 'vitest';
import { createKeyring, generateKeyringKey } from '../keyring/keyring.js';
import type { SecretVersion } from '../model/model.js';
import type { SecretRepository } from '../store/ports/secrets.js';
import { pullSecrets } from './pull-secrets.js';
import { sealSecretValue } from './values.js';

const AT = '2026-03-01T12:00:00.000Z';
const ENV = { id: 'env_1' };
const keyring = createKeyring({ current: 'k1', keys: { k1: generateKeyringKey() } });

/** A store whose live secrets of `env_1` are `rows`. */
const storeOf = (rows: SecretVersion[]) => ({
  secrets: {
    listLive: async (environmentId: string) => (environmentId === ENV.id ? rows : []),
  } as unknown as SecretRepository,
});

describe('pullSecrets', () => {
  it('opens sealed values and keeps values stored before the keyring as they are', async () => {
    const rows = [
      { key: 'A', version: 2, value: sealSecretValue(keyring, ENV.id, 'A', 'alpha'), updated_at: AT },
      { key: 'B', version: 1, value: 'plain', updated_at: AT },
    ];
    expect(rows[0]?.value).not.toBe('alpha');
    expect(await pullSecrets({ store: storeOf(rows), keyring }, ENV)).toEqual([
      { key: 'A', version: 2, value: 'alpha', updated_at: AT },
      { key: 'B', version: 1, value: 'plain', updated_at: AT },
    ]);
  });

  it('is a 500 naming no value for a sealed value without a keyring or sealed for another key', async () => {
    const sealed = sealSecretValue(keyring, ENV.id, 'A', 'alpha');
    const noKeyring = pullSecrets(
      { store: storeOf([{ key: 'A', version: 1, value: sealed, updated_at: AT }]), keyring: undefined },
      ENV,
    );
    await expect(noKeyring).rejects.toMatchObject({ code: 'internal_error' });
    await expect(noKeyring).rejects.not.toThrow(/alpha/);
    const moved = pullSecrets(
      { store: storeOf([{ key: 'B', version: 1, value: sealed, updated_at: AT }]), keyring },
      ENV,
    );
    await expect(moved).rejects.toThrow();
  });
});
