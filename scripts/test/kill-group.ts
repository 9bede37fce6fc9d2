/**
 * Ends a process group started with `detached: true` (the demo, its server and its receiver) with
 * SIGKILL, so nothing outlives a test; a group already gone is fine.
 */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already ended.
  }
}
