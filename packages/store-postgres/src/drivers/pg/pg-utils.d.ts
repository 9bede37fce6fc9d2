/** node-postgres' conversion of a parameter to what it sends (a string, a Buffer or null), as its own queries use it. */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
