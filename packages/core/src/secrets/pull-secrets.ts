/** A pull: the live secrets of an environment, each value opened from its seal. */
import type { Keyring } from '../keyring/keyring.js';
import type { Environment, SecretVersion } from '../model/model.js';
import type { LatchkeyStore } from '../store/types.js';
import { openSecretValue } from './values.js';

/**
 * The live head of every key of `environment`, sorted by key, as the API shows it: key, value (opened,
 * or as stored when it predates the keyring), version and time. A sealed value without a keyring, or one
 * that does not open, is a 500.
 */
export async function pullSecrets(
  deps: { store: Pick<LatchkeyStore, 'secrets'>; keyring: Keyring | undefined },
  environment: Pick<Environment, 'id'>,
): Promise<SecretVersion[]> {
  const secrets = await deps.store.secrets.listLive(environment.id);
  return secrets.map((s) => ({
    key: s.key,
    value: s.value === null ? null : openSecretValue(deps.keyring, environment.id, s.key, s.value),
    version: s.version,
    updated_at: s.updated_at,
  }));
}
