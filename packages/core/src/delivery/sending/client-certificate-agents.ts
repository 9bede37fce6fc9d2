/**
 * The sender's connection pools for webhooks that present a client certificate: TLS client
 * credentials are fixed per connection, so each certificate gets its own undici `Agent` (with the
 * same SSRF-guarded lookup as the shared one), kept while it is used and closed when evicted.
 */
import type { Agent } from 'undici';

/** A client certificate and its opened key, as an attempt presents them. */
export interface ClientCredentials {
  /** The certificate (chain) in PEM; it binds the key, so it names the pool. */
  certificate: string;
  /** The private key in PEM, opened for this attempt; held only by the pool's TLS options. */
  privateKey: string;
}

/** Pools by certificate. */
export interface CertificateAgents {
  /** The pool presenting `credentials`, made on first use. */
  get(credentials: ClientCredentials): Agent;
  /** Closes every pool. */
  close(): Promise<void>;
}

/** At most this many pools are kept; the least recently used is closed beyond it. */
const MAX_AGENTS = 256;

/** Pools made by `make`, kept by certificate, least recently used closed first. */
export function createCertificateAgents(make: (credentials: ClientCredentials) => Agent): CertificateAgents {
  const agents = new Map<string, Agent>();
  return {
    get(credentials) {
      const found = agents.get(credentials.certificate);
      if (found) {
        // Re-inserted: a Map iterates in insertion order, so the first entry is the least recent.
        agents.delete(credentials.certificate);
        agents.set(credentials.certificate, found);
        return found;
      }
      if (agents.size >= MAX_AGENTS) {
        const [oldest, agent] = agents.entries().next().value as [string, Agent];
        agents.delete(oldest);
        void agent.close().catch(() => undefined);
      }
      const agent = make(credentials);
      agents.set(credentials.certificate, agent);
      return agent;
    },
    async close() {
      const all = [...agents.values()];
      agents.clear();
      await Promise.all(all.map((agent) => agent.close()));
    },
  };
}
