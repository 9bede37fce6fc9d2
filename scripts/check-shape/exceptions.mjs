// The files and functions allowed past the size rules, each with its reason. Keep this list short and
// keep the README's contributing section in step with it.
export const exceptions = {
  /** `path` -> reason */
  files: {},
  /** `path#functionName` -> reason */
  functions: {},
};
