/** How the example tests talk to a started server: as its bootstrap admin, in JSON. */

/** The bootstrap admin token the example tests start a server with. */
export const EXAMPLE_TOKEN = 'lk_example_spawn_test_token_0000000000000000';

/** A JSON request to `base` as the holder of `token`. */
export type SendJson = (method: string, path: string, body?: unknown) => Promise<Response>;

/** Sends JSON requests to the server at `base()` with `token` as the bearer. */
export function sendJsonAs(base: () => string, token: string): SendJson {
  return (method, path, body) =>
    fetch(base() + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}
