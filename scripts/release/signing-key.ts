/** The release signing key: an Ed25519 private key, PKCS#8 PEM, from `--key` or LATCHKEY_RELEASE_SIGNING_KEY. */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as `release-key.pub` holds it (SPKI PEM). */
  publicPem: string;
}

export function loadSigningKey(path: string | undefined): SigningKey {
  if (!path) {
    throw new Error(
      'No signing key: set LATCHKEY_RELEASE_SIGNING_KEY to the path of an Ed25519 private key (PKCS#8 PEM), or pass --key FILE. `openssl genpkey -algorithm ed25519 -out release-key.pem` makes one.',
    );
  }
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the signing key ${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${path} is not a private key in PEM.`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${path} is a ${privateKey.asymmetricKeyType} key; releases are signed with Ed25519.`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
