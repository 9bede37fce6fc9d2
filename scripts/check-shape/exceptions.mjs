// The files and functions allowed past the size rules, each with its reason. Keep this list short and
// keep CONTRIBUTING.md's "Exceptions" section in step with it (a test checks it).
export const exceptions = {
  /** `path` -> reason */
  files: {},
  /** `path#functionName` -> reason */
  functions: {},
};
