/**
 * A witness's signing key for `latchkey activity witness --cosign`: an Ed25519 private key in a
 * PKCS#8 PEM file (`openssl genpkey -algorithm ed25519`), its raw public key, its note key name
 * (`--name`, or `latchkey-witness/<16 hex of SHA-256(public key)>`, stable for the key) and the
 * C2SP verifier key (algorithm 0x04, tlog-cosignature/v1) to register with the organization.
 */
import { createHash, createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './exit-codes.js';

/** A loaded witness key. */
export interface WitnessKey {
  name: string;
  privateKey: CryptoKey;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** `<name>+<hex key hash>+<base64(0x04 || public key)>`. */
  verifierKey: string;
}

/** Algorithm byte of a C2SP tlog-cosignature/v1 key. */
const ALG_COSIGNATURE_V1 = 0x04;

/** The key name derived from the public key when `--name` is not given. */
function defaultWitnessName(publicKey: Uint8Array): string {
  return `latchkey-witness/${createHash('sha256').update(publicKey).digest('hex').slice(0, 16)}`;
}

/** Whether `name` may name a note key: no whitespace, no `+`, no control character. */
function validName(name: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  return name.length > 0 && !/[\s+\u0000-\u001f\u007f\u0085]/.test(name);
}

/** Reads the PEM at `file` and derives what a witness signs and registers with. */
export async function loadWitnessKey(file: string, name?: string): Promise<WitnessKey> {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new CliError(`${file} is not a PEM private key.`, EXIT.usage);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new CliError(`${file} is not an Ed25519 private key.`, EXIT.usage);
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32));
  const keyName = name ?? defaultWitnessName(publicKey);
  if (!validName(keyName))
    throw new CliError(`The witness name "${keyName}" may not hold spaces, "+" or controls.`, EXIT.usage);
  const pkcs8 = key.export({ format: 'der', type: 'pkcs8' });
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    new Uint8Array(pkcs8),
    { name: 'Ed25519' },
    false,
    ['sign'],
  );
  const encoded = Buffer.concat([Buffer.from([ALG_COSIGNATURE_V1]), publicKey]);
  const hash = createHash('sha256')
    .update(`${keyName}\n`)
    .update(Buffer.from([ALG_COSIGNATURE_V1]))
    .update(publicKey)
    .digest()
    .subarray(0, 4)
    .toString('hex');
  return {
    name: keyName,
    privateKey: privateKey as CryptoKey,
    publicKey,
    verifierKey: `${keyName}+${hash}+${encoded.toString('base64')}`,
  };
}
