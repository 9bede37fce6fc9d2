/**
 * The openings of a client certificate's connections, a few at a time. Every full handshake signs
 * with the certificate's key on this process's thread (an RSA-4096 signature takes about 6 ms), and
 * undici opens a pool's connections together: a webhook whose receiver closes every connection
 * would have its pool's handshakes sign back to back, holding every other request of the process
 * (another organization's among them) for tens of milliseconds at a time. Gated, at most `limit`
 * handshakes of one pool are under way at once and the others wait their turn; a pool whose
 * receiver keeps its connections open opens them once, and is not slowed.
 */
import type { buildConnector } from 'undici';

/** `connector`, letting at most `limit` of its connections be opening at once. */
export function gatedConnector(connector: buildConnector.connector, limit: number): buildConnector.connector {
  let opening = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else opening--;
  };
  return (options, callback) => {
    const open = () =>
      connector(options, (error, socket) => {
        release();
        // Both arguments exactly as undici gave them (its callback type is a union of two shapes).
        (callback as (e: Error | null, s: unknown) => void)(error, socket);
      });
    if (opening < limit) {
      opening++;
      open();
    } else {
      waiting.push(open);
    }
  };
}
