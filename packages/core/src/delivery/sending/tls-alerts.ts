/**
 * TLS alerts a receiver sent after the handshake, remembered per origin for a moment. Under TLS 1.3
 * a receiver that refuses the client's certificate (none, or not one its CA issued) sends its alert
 * after the client has finished the handshake; undici then reports the request as "other side
 * closed", losing the alert. Watching the sockets it connects lets the sender still record such an
 * attempt as a `tls_error` naming the alert, which tells an admin to look at the certificate.
 */
import type { buildConnector } from 'undici';

const TLS_CODE = /^ERR_(SSL|TLS)_/;
/** Origins remembered at most (the oldest forgotten first). */
const LIMIT = 1_000;

/** The connector wrapper and what it saw. */
export interface TlsAlerts {
  /** `connector`, with every socket it makes watched for TLS errors. */
  watch(connector: buildConnector.connector): buildConnector.connector;
  /** The code of a TLS error seen on a connection to `host:port` at or after `sinceMs`, or null. */
  since(host: string, port: string, sinceMs: number): string | null;
}

/** Remembers TLS errors of watched sockets by origin, with when they happened (`now`: ms clock). */
export function createTlsAlerts(now: () => number = Date.now): TlsAlerts {
  const seen = new Map<string, { code: string; at: number }>();
  return {
    watch: (connector) => (options, callback) =>
      connector(options, (error, socket) => {
        socket?.on('error', (failure: { code?: unknown }) => {
          const code = String(failure?.code ?? '');
          if (!TLS_CODE.test(code)) return;
          const key = `${options.hostname}:${String(options.port)}`;
          seen.delete(key);
          if (seen.size >= LIMIT) seen.delete(seen.keys().next().value as string);
          seen.set(key, { code, at: now() });
        });
        // Both arguments exactly as undici gave them (its callback type is a union of two shapes).
        (callback as (e: Error | null, s: unknown) => void)(error, socket);
      }),
    since(host, port, sinceMs) {
      const alert = seen.get(`${host}:${port}`);
      return alert && alert.at >= sinceMs ? alert.code : null;
    },
  };
}
