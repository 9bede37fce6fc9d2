/**
 * The README's "Signature schemes" names every header each scheme sends: the names are taken from
 * what the signing functions (the ones the sender uses) actually produce, so a header added to a
 * scheme without its line in the README fails here.
 */
import { createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import {
  generateSigningKeyPair,
  generateSigningSecret,
  signatureHeaders,
  standardSignatureHeaders,
} from '../src/index.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const body = '{"id":"evt_1","type":"webhook_test"}';

/** The README's row of `scheme` in the section's table. */
function rowOf(scheme: string): string {
  const start = readme.indexOf('\n## Signature schemes\n');
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
  const row = section.split('\n').find((line) => line.startsWith(`| \`${scheme}\``));
  expect(row, `no row for ${scheme}`).toBeDefined();
  return row!;
}

it('the README names every header of every signature scheme, as the sender writes it', () => {
  const schemes = {
    latchkey: signatureHeaders({ secret: generateSigningSecret(), body, eventId: 'evt_1' }),
    'standard-webhooks': standardSignatureHeaders({
      secrets: [`whsec_${randomBytes(32).toString('base64')}`],
      body,
      eventId: 'evt_1',
    }),
    'standard-webhooks-ed25519': standardSignatureHeaders({
      privateKeys: [createPrivateKey(generateSigningKeyPair().privateKey)],
      body,
      eventId: 'evt_1',
    }),
  };
  for (const [scheme, headers] of Object.entries(schemes)) {
    const names = Object.keys(headers);
    expect(names.length, scheme).toBe(3);
    const row = rowOf(scheme);
    for (const name of names)
      expect({ scheme, name, named: row.includes(`\`${name}\``) }).toMatchObject({ named: true });
  }
});
