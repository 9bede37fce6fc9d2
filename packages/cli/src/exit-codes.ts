/** The exit codes of `latchkey`, as its README documents them. */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** Any other failure: the server could not be reached, a file could not be read, … */
  failure: 1,
  /** Unknown command or option, a missing argument. */
  usage: 2,
  /** Versions not settled: 409 `version_conflict`, 428 `if_version_required`; local edits a pull would overwrite. */
  conflict: 3,
  /** Authentication or permission refused: 401, 403, a replayed ID token, a workload session expired or open to others. */
  refused: 4,
  /** Verification failed: an activity export, a release, a backup that is tampered or truncated. */
  verification: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI explains in one line and exits with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failure,
  ) {
    super(message);
  }
}
