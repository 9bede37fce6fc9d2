/**
 * The RSA keys of 4096 and 4160 bits the tests issue client certificates for (the receivers that
 * demand one, and the checks that take RSA-4096 and refuse a key past it), made once per test run
 * and handed to the tests as `inject('rsaKeys')`. Each is a search for two large primes, seconds of
 * one core for 4096 bits and up to tens of seconds for 4160 on two shared cores, and the HTTP suite
 * wants one of each in every run of it (eight a test run, one per way of serving and store). A
 * certificate is still issued for the key in each test that asks, by its own CA. Kept beside the
 * workspace's dependencies, so a run of one test file does not make them again.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

declare module 'vitest' {
  export interface ProvidedContext {
    /** RSA private keys in PEM (PKCS#8), by their size in bits; see `scripts/test/rsa-keys.ts`. */
    rsaKeys: Record<number, string>;
  }
}

/** The sizes made: the largest key a webhook's client certificate may have, and the first refused. */
export const RSA_TEST_BITS = [4096, 4160] as const;

const root = new URL('../..', import.meta.url).pathname;
const keyFile = (bits: number) => `${root}node_modules/.cache/latchkey-rsa-${bits}.pem`;

/** Makes the keys not made yet (openssl, both at once) and resolves with every key by its size. */
export async function rsaTestKeys(): Promise<Record<number, string>> {
  await Promise.all(
    RSA_TEST_BITS.filter((bits) => !existsSync(keyFile(bits))).map(async (bits) => {
      const file = keyFile(bits);
      mkdirSync(dirname(file), { recursive: true });
      // Written beside and renamed into place, so a run stopped halfway leaves no half a key.
      const partial = `${file}.${process.pid}.partial`;
      await promisify(execFile)('openssl', [
        'genpkey',
        '-algorithm',
        'RSA',
        '-pkeyopt',
        `rsa_keygen_bits:${bits}`,
        '-out',
        partial,
      ]);
      renameSync(partial, file);
    }),
  );
  return Object.fromEntries(RSA_TEST_BITS.map((bits) => [bits, readFileSync(keyFile(bits), 'utf8')]));
}
