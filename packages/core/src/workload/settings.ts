/** What workload identity needs from the core's options: the trusted issuers and one cache of issuers' keys. */
import type { WebhookSettings } from '../delivery/config.js';
import { createIssuerFetch } from './issuer-fetch.js';
import { createIssuerKeys, type IssuerKeys } from './issuer-keys.js';
import { type TrustedIssuer, type TrustedIssuers, toTrustedIssuers } from './trusted-issuers.js';

/** How long one fetch of a discovery document or key set may take, in milliseconds. */
const FETCH_TIMEOUT_MS = 5_000;

/** The resolved workload settings. */
export interface WorkloadSettings {
  trusted: TrustedIssuers;
  keys: IssuerKeys;
}

/** Resolves the option `trustedIssuers` and makes the key cache, on the webhook SSRF guard's resolver. */
export function workloadSettings(
  option: string | readonly (TrustedIssuer | string)[] | undefined,
  webhooks: Pick<WebhookSettings, 'resolve' | 'allowHosts'>,
  now: () => number,
): WorkloadSettings {
  const trusted = toTrustedIssuers(option);
  const fetch = createIssuerFetch({
    resolve: webhooks.resolve,
    allowHosts: webhooks.allowHosts,
    trusted,
    timeoutMs: FETCH_TIMEOUT_MS,
  });
  return { trusted, keys: createIssuerKeys(fetch, now) };
}
