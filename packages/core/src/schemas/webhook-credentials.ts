/**
 * The schemas of what a receiver may demand of a webhook: custom headers (an object from name to
 * value, values masked in every answer) and an mTLS client certificate (PEM; the key never shown).
 * The certificate is parsed and matched to its key by the route (`delivery/client-certificate.ts`).
 */
import { z } from 'zod';
import {
  duplicateNames,
  headerListFault,
  headerNameFault,
  headerValueFault,
  MASKED_VALUE,
  MAX_CUSTOM_HEADERS,
} from '../delivery/sending/custom-headers.js';
import { text } from './text.js';

/**
 * The list's bounds, before zod reads any entry (a record schema checks every key and value before
 * its refinements run): one issue, and the entries are not looked at.
 */
function boundHeaders(headers: unknown, ctx: z.RefinementCtx): unknown {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return headers;
  const fault = headerListFault(headers);
  if (fault) ctx.addIssue({ code: 'custom', input: headers, ...fault });
  return headers;
}

/** Adds an issue for each bad name or value of `headers` (values null are removals, not checked). */
function checkHeaders(headers: Record<string, string | null>, ctx: z.RefinementCtx) {
  const names = Object.keys(headers);
  for (const name of names) {
    const nameFault = headerNameFault(name);
    if (nameFault) ctx.addIssue({ code: 'custom', path: [name], message: nameFault });
    const value = headers[name];
    const valueFault = value === null || value === undefined ? null : headerValueFault(value);
    if (valueFault) ctx.addIssue({ code: 'custom', path: [name], message: valueFault });
  }
  for (const name of duplicateNames(names)) {
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: 'header names are case-insensitive: this one repeats another',
    });
  }
}

/** `headers` at create: name to value, at most 10. */
export const HeadersBody = z
  .preprocess(boundHeaders, z.record(text(), text()).superRefine(checkHeaders))
  .describe(
    `custom headers sent with every delivery, name to value (at most ${MAX_CUSTOM_HEADERS}; values are sealed at rest and shown masked as "${MASKED_VALUE}" afterwards). Framing, hop-by-hop (connection, proxy-*, …), signature (x-service-*, webhook-*) and trace headers are refused.`,
  );

/** `headers` in a PATCH: a JSON merge patch; null as a whole removes every custom header. */
export const HeadersPatch = z
  .preprocess(boundHeaders, z.record(text(), text().nullable()).superRefine(checkHeaders))
  .nullable()
  .describe(
    'a merge patch of the custom headers: a value sets or replaces the header of that name (ignoring case), null removes it, names not given are kept; headers: null removes them all. At most 10 after the patch.',
  );

/** Longest PEM accepted for the certificate (chain) and for the key, in characters. */
const MAX_PEM = 32_768;
const Pem = text().min(1).max(MAX_PEM);

/** `client_certificate` on create and PATCH (PATCH: null removes it). */
export const ClientCertificateBody = z
  .strictObject({
    certificate: Pem.describe('the client certificate in PEM, optionally followed by its intermediates'),
    private_key: Pem.describe(
      'its private key in unencrypted PEM (PKCS#8, PKCS#1 or SEC1); sealed at rest, never shown again',
    ),
  })
  .describe('an mTLS client certificate presented on every delivery attempt');

/** How every webhook answer shows the custom headers: the names, each value masked. */
export const HeadersView = z
  .record(z.string(), z.literal(MASKED_VALUE))
  .describe(`the custom headers' names; every value shows as "${MASKED_VALUE}"`);

/** How every webhook answer shows the client certificate (never the key), or null. */
export const ClientCertificateView = z
  .strictObject({
    subject: z.string(),
    issuer: z.string(),
    fingerprint_sha256: z.string().describe('SHA-256 of the DER certificate, colon-separated hex'),
    not_before: z.string(),
    not_after: z.string(),
  })
  .nullable();
