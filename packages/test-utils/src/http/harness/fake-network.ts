/**
 * The network of the conformance suites' core, with no real DNS or HTTP: a resolver that answers
 * fixed addresses (public, private, metadata, mixed, IPv4-mapped) and a transport that answers by
 * the URL's last segment.
 */
import type { LookupAddress } from 'node:dns';
import type { Transport } from '@latchkey/core/webhooks';

/** The public host the suites' webhooks point at. */
export const PUBLIC_HOST = 'hooks.example.com';

/** The resolver of the suite's core: names answer fixed addresses, with no real DNS. */
export async function conformanceResolver(host: string): Promise<LookupAddress[]> {
  const answers: Record<string, string[]> = {
    [PUBLIC_HOST]: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    // The suite's OIDC issuer on loopback (a trusted issuer of the suite's core).
    'issuer.test': ['127.0.0.1'],
  };
  const addresses = answers[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

/** A request the suite's fake transport received. */
export interface SentDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * The transport of the suite's core: no network; URLs ending in `/fail` answer 500, `/gone` 410,
 * everything else 200, each after a fixed 7 ms; every request is kept in `sent`.
 */
export function conformanceTransport(): Transport & { sent: SentDelivery[] } {
  const sent: SentDelivery[] = [];
  return {
    sent,
    async send({ url, body, headers }) {
      sent.push({ url, body, headers });
      const status = url.endsWith('/fail') ? 500 : url.endsWith('/gone') ? 410 : 200;
      const ok = status === 200;
      return {
        ok,
        statusCode: status,
        latencyMs: 7,
        error: ok
          ? null
          : { code: 'http_status', status_code: status, message: `the receiver answered ${status}` },
        retryAfterSeconds: null,
      };
    },
    async close() {},
  };
}
