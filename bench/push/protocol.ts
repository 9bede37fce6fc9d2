/** What run.ts and the server processes say to each other over the IPC channel. */

/** The frameworks under test. */
export const FRAMEWORKS = ['express', 'fastify', 'hono'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** A bare route of the framework, or the Latchkey adapter. */
export type Variant = 'bare' | 'adapter';

/** A message from a server process to run.ts. */
export type ServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'cpu'; usage: NodeJS.CpuUsage }
  | { type: 'failed'; error: string };

/** A message from run.ts to a server process. */
export type ControlMessage = { type: 'cpu' } | { type: 'stop' };
