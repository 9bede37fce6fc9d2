/** The logger a core and its delivery engine write operational lines to. */

/** Something that receives operational log lines. Never given secrets or request bodies. */
export interface CoreLogger {
  error(message: string, meta?: Record<string, unknown>): void;
}

/** The default logger: `console.error`, each line marked as Latchkey's. */
export const consoleLogger: CoreLogger = {
  error: (message, meta) => console.error(`[latchkey] ${message}`, meta ?? ''),
};
