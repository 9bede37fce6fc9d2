/**
 * The issuers a host trusts beyond the public ones (core option `trustedIssuers`): a private issuer
 * with its own CA, or a loopback issuer for tests. A trusted issuer's host may be reached at any
 * address; every other issuer is held to the webhook SSRF rules.
 */

/** One entry of the core option `trustedIssuers`. */
export interface TrustedIssuer {
  /** The issuer URL, exactly as its tokens' `iss` names it (https). */
  issuer: string;
  /** PEM certificates to trust for it, besides (not instead of) the system's. */
  ca?: string | readonly string[];
}

/** The trusted issuers, checked: each an https URL without credentials. */
export interface TrustedIssuers {
  /** The entry of `issuer`, if trusted. */
  get(issuer: string): { ca: readonly string[] } | undefined;
  /** Hosts (lower case) of every trusted issuer: reached whatever address they resolve to. */
  hosts: ReadonlySet<string>;
}

/** Reads `trustedIssuers` (a list, or issuer URLs separated by commas as in `LATCHKEY_TRUSTED_ISSUERS`). */
export function toTrustedIssuers(option: string | readonly (TrustedIssuer | string)[] = []): TrustedIssuers {
  const list =
    typeof option === 'string'
      ? option
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : option;
  const byIssuer = new Map<string, { ca: readonly string[] }>();
  const hosts = new Set<string>();
  for (const entry of list) {
    const { issuer, ca } = typeof entry === 'string' ? { issuer: entry, ca: undefined } : entry;
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new TypeError(`trustedIssuers: ${JSON.stringify(issuer)} is not a URL`);
    }
    if (url.protocol !== 'https:' || url.username || url.password)
      throw new TypeError(`trustedIssuers: ${issuer} must be an https URL without credentials`);
    byIssuer.set(issuer, { ca: ca === undefined ? [] : typeof ca === 'string' ? [ca] : [...ca] });
    hosts.add(url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1'));
  }
  return { get: (issuer) => byIssuer.get(issuer), hosts };
}
