/**
 * One raw HTTP/1.1 exchange over a TCP socket: for what `fetch` refuses to send (malformed framing,
 * absolute-form targets, any method name, oversized headers). The request is written as given; the
 * answer is read until the server closes the connection (send `Connection: close`) or 5 s pass.
 */
import net from 'node:net';

/** A parsed raw answer. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

/** Sends `request` (CRLFs included) to `base` (`http://127.0.0.1:PORT`) and parses the answer. */
export function rawExchange(base: string, request: string | Buffer): Promise<RawResponse> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we are still writing: the answer it sent first still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(new Error(`no complete HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = Buffer.from(text.slice(split + 4), 'latin1').toString('utf8');
      if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, json });
    });
    socket.write(request);
  });
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol === -1) return out;
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
