/**
 * PostgreSQL's memory settings for the embedded engine. PGlite keeps PostgreSQL's server defaults
 * (128 MB of shared buffers, 64 MB for maintenance), sized for a database server with a machine of
 * its own; in the application's process every buffer, once touched, stays in its memory for good
 * (the WebAssembly heap never shrinks). These are sized for an embedded store of one application.
 */

/** PostgreSQL memory settings, each a size as PostgreSQL writes them: `16MB`, `512kB`, `1GB`. */
export interface PgliteMemorySettings {
  /** `shared_buffers`: the page cache. Default `16MB` (PostgreSQL's: 128MB). */
  sharedBuffers?: string;
  /** `work_mem`: per sort or hash before it spills to a temporary file. Default `2MB` (4MB). */
  workMem?: string;
  /** `maintenance_work_mem`: index builds and VACUUM (migrations). Default `16MB` (64MB). */
  maintenanceWorkMem?: string;
  /** `temp_buffers`: per-session cache of temporary tables. Default `2MB` (8MB). */
  tempBuffers?: string;
  /** `wal_buffers`: WAL not yet written. Default `512kB` (PostgreSQL's 1/32 of shared_buffers). */
  walBuffers?: string;
}

/** The defaults of {@link PgliteMemorySettings}. */
export const PGLITE_MEMORY_DEFAULTS: Readonly<Required<PgliteMemorySettings>> = {
  sharedBuffers: '16MB',
  workMem: '2MB',
  maintenanceWorkMem: '16MB',
  tempBuffers: '2MB',
  walBuffers: '512kB',
};

const PARAMETERS: Record<keyof PgliteMemorySettings, string> = {
  sharedBuffers: 'shared_buffers',
  workMem: 'work_mem',
  maintenanceWorkMem: 'maintenance_work_mem',
  tempBuffers: 'temp_buffers',
  walBuffers: 'wal_buffers',
};

/** A size PostgreSQL reads: digits and an optional unit (no unit: the parameter's own, e.g. 8kB pages). */
const SIZE = /^[1-9][0-9]{0,9}(kB|MB|GB)?$/;

/**
 * The server's `-c name=value` arguments for `settings` over the defaults. Throws, naming the
 * option, on a value that is not a size (they are passed to PostgreSQL as arguments).
 */
export function memoryStartParams(settings: PgliteMemorySettings = {}): string[] {
  const merged = { ...PGLITE_MEMORY_DEFAULTS, ...settings };
  const params: string[] = [];
  for (const [option, parameter] of Object.entries(PARAMETERS) as [keyof PgliteMemorySettings, string][]) {
    const value = merged[option] ?? PGLITE_MEMORY_DEFAULTS[option];
    if (!SIZE.test(value)) {
      throw new Error(`memory.${option} must be a size such as "16MB" or "512kB", got "${value}"`);
    }
    params.push('-c', `${parameter}=${value}`);
  }
  return params;
}
