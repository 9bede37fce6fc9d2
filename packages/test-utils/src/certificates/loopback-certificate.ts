/**
 * A certificate for `localhost`, made by the real openssl, for HTTPS receivers on loopback in tests
 * and the demo's like: the servers under test trust it only through `NODE_EXTRA_CA_CERTS`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoopbackCertificate {
  /** The PEM files, in `dir`. */
  keyFile: string;
  certFile: string;
  key: Buffer;
  cert: Buffer;
}

/** Writes `key.pem` and `cert.pem` (P-256, one day, `DNS:<host>`, `localhost` by default) into `dir`. */
export function makeLoopbackCertificate(dir: string, host = 'localhost'): LoopbackCertificate {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=DNS:${host}`,
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
