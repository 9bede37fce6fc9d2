/**
 * What a secret's key may be: a letter or `_`, then up to 255 of letters, digits, `_`, `.` and `-`.
 * The server refuses any other key at push, and a client checks every key a server sends against
 * the same rule before it writes anything (a key holding a newline would become a line of its own
 * in a `.env` file).
 */

/** The rule, as one pattern. */
export const SECRET_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,255}$/;

/** The rule in words, for messages. */
export const SECRET_KEY_RULE = 'must start with a letter or _ and use A-Z, a-z, 0-9, _, . or -';

/** Whether `key` is a string the server would take as a secret's key. */
export const isSecretKey = (key: unknown): key is string =>
  typeof key === 'string' && SECRET_KEY_PATTERN.test(key);
