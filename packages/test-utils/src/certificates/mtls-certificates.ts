/**
 * Certificates for a receiver that demands a client certificate, made by the real openssl: a CA of
 * the receiver's own, a server certificate for its host and a client certificate, both issued by
 * that CA, and a client certificate issued by another CA (one the receiver must refuse).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** A key and certificate in PEM. */
export interface PemPair {
  key: string;
  cert: string;
}

/** What {@link makeMtlsCertificates} writes. */
export interface MtlsCertificates {
  /** The receiver's CA (it trusts client certificates it issued; the sender trusts its server certificate). */
  ca: string;
  server: PemPair;
  client: PemPair;
  /** Issued by another CA: refused by the receiver. */
  stranger: PemPair;
  /** Client certificates with RSA keys of the sizes asked for, by bits, issued by the receiver's CA. */
  rsa: Record<number, PemPair>;
}

/** Options of {@link makeMtlsCertificates}. */
export interface MtlsCertificateOptions {
  /**
   * RSA client keys to issue too. The sizes the test run made once (`inject('rsaKeys')`: 4096 and
   * 4160 bits) are issued for those keys; any other costs openssl a key generation.
   */
  rsaClientBits?: readonly number[];
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function authority(dir: string, name: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  openssl([
    'req',
    '-x509',
    ...EC,
    '-days',
    '2',
    '-keyout',
    key,
    '-out',
    cert,
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return { key, cert };
}

function issue(
  dir: string,
  ca: { key: string; cert: string },
  name: string,
  extensions: string,
  keyArgs: readonly string[] | { pem: string } = EC,
): PemPair {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.pem`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  if ('pem' in keyArgs) writeFileSync(key, keyArgs.pem, { mode: 0o600 });
  const keyOptions = 'pem' in keyArgs ? ['-new', '-key', key] : [...keyArgs, '-keyout', key];
  openssl(['req', ...keyOptions, '-out', csr, '-subj', `/CN=${name}`]);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    cert,
    '-extfile',
    ext,
  ]);
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** Writes the receiver's CA, its server certificate for `host`, and the client certificates into `dir`. */
export function makeMtlsCertificates(
  dir: string,
  host: string,
  options: MtlsCertificateOptions = {},
): MtlsCertificates {
  const ca = authority(dir, 'receiver-ca');
  const other = authority(dir, 'other-ca');
  const clientAuth = 'extendedKeyUsage=clientAuth\n';
  const made = inject('rsaKeys') ?? {};
  const rsa = Object.fromEntries(
    (options.rsaClientBits ?? []).map((bits) => [
      bits,
      issue(
        dir,
        ca,
        `latchkey-sender-rsa-${bits}`,
        clientAuth,
        made[bits] ? { pem: made[bits] } : ['-newkey', `rsa:${bits}`, '-nodes'],
      ),
    ]),
  );
  return {
    ca: readFileSync(ca.cert, 'utf8'),
    server: issue(dir, ca, 'receiver', `subjectAltName=DNS:${host}\nextendedKeyUsage=serverAuth\n`),
    client: issue(dir, ca, 'latchkey-sender', 'extendedKeyUsage=clientAuth\n'),
    stranger: issue(dir, other, 'stranger', 'extendedKeyUsage=clientAuth\n'),
    rsa,
  };
}
