import { randomBytes } from 'node:crypto';

/** Makes a new id with a type prefix, e.g. `dev_5f2c…`. Injectable so tests can be deterministic. */
export type IdGenerator = (prefix: string) => string;

/** The default id generator: prefix + 12 random bytes as hex. */
export const randomId: IdGenerator = (prefix) => `${prefix}_${randomBytes(12).toString('hex')}`;
