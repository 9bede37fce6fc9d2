/**
 * The audit key an example server signs checkpoints with. Kept in a file (PKCS#8 PEM, readable by
 * this user only) so checkpoints stay verifiable across restarts: `LATCHKEY_AUDIT_KEY_FILE`, or, on
 * a PGlite directory, `audit-key.pem` beside it. Created on first start. With neither (memory or
 * PostgreSQL without the variable) the key lives as long as the process.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateAuditKey, toAuditKey } from '@latchkey/core';

export interface ExampleAuditKey {
  privateKeyPem: string;
  publicKey: string;
  /** Where it is kept, or null when it is not. */
  file: string | null;
}

/** Reads the key from its file, creating the file first when there is none. */
export function loadExampleAuditKey(storeDir: string | null): ExampleAuditKey {
  const configured = process.env['LATCHKEY_AUDIT_KEY_FILE'];
  const file = configured
    ? resolve(configured)
    : storeDir
      ? join(dirname(resolve(storeDir)), 'audit-key.pem')
      : null;
  if (file && existsSync(file)) {
    const privateKeyPem = readFileSync(file, 'utf8');
    return { privateKeyPem, publicKey: toAuditKey(privateKeyPem).publicKey, file };
  }
  const generated = generateAuditKey();
  if (file) writeFileSync(file, generated.privateKeyPem, { mode: 0o600, flag: 'wx' });
  return { ...generated, file };
}
