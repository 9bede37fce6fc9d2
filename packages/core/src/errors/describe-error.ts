/** Name, code and message of an error, for the logs: never its other fields (a driver may attach query parameters). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
}
