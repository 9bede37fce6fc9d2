/** Shared result types of the repository ports. */

/** `created` or, when the unique key is already taken, `exists` (and nothing was written). */
export type CreateResult = 'created' | 'exists';
