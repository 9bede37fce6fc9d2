/** Raw HTTP helpers for adapter tests: what `fetch` cannot do, such as a chunked upload in two parts. */
import http from 'node:http';

/**
 * POSTs `first`, then (after `delayMs`) `rest`, with `Transfer-Encoding: chunked` and no
 * Content-Length, so the server can only find the size while streaming. Resolves with the answer.
 */
export function postChunked(
  base: string,
  path: string,
  headers: Record<string, string>,
  first: string,
  rest: string,
  delayMs = 0,
): Promise<{ status: number; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.write(first);
    if (delayMs > 0) setTimeout(() => req.end(rest), delayMs);
    else req.end(rest);
  });
}
