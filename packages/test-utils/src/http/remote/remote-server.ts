/**
 * A server under test in a process of its own, held to a memory limit as a small container holds
 * it: a watchdog reads the process's RSS from /proc every 50 ms and kills it (SIGKILL, as the
 * kernel's OOM killer would) once it passes the limit, so every test after fails. Its peak is the
 * kernel's own high-water mark (VmHWM), read until the process ends. The harness talks to it over
 * an IPC channel (see `channel.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { SentDelivery } from '../harness/fake-network.js';
import { type Ask, openChannel } from './channel.js';

/** How to start the server. */
export interface RemoteServerOptions {
  /** The program and its arguments, e.g. node with its heap flags and the server's bundle. */
  command: [string, string[]];
  cwd?: string;
  env?: Record<string, string>;
  /** The limit on the server's RSS, in MB. */
  limitMb: number;
}

/** A server the suite runs against (see {@link remoteServer}). */
export interface RemoteServer {
  readonly limitMb: number;
  /** Spawns the server; resolves with its channel. */
  start(onSent: (sent: SentDelivery) => void): Promise<Ask>;
  /** The server's peak RSS (VmHWM) in MB, as last read. */
  peakMb(): number;
  /** Why the watchdog killed the server, or null. */
  killed(): string | null;
  /** Everything the server printed. */
  output(): string;
  /** Ends the server (its IPC channel closes; it exits) and reads its peak a last time. */
  stop(): Promise<void>;
}

/** VmRSS and VmHWM of `pid` in MB, or null once it is gone. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** A server that {@link RemoteServer.start} spawns with `options`. */
export function remoteServer(options: RemoteServerOptions): RemoteServer {
  let child: ChildProcess | null = null;
  let output = '';
  let peak = 0;
  let killedFor: string | null = null;
  let watch: NodeJS.Timeout | undefined;
  const read = () => {
    const memory = child?.pid ? memoryOf(child.pid) : null;
    if (!memory || child?.exitCode !== null) return;
    peak = Math.max(peak, memory.peak);
    if (memory.rss > options.limitMb && !killedFor) {
      killedFor = `its RSS reached ${Math.round(memory.rss)} MB, past the limit of ${options.limitMb} MB`;
      child.kill('SIGKILL');
    }
  };
  const why = () =>
    killedFor ?? `exit ${child?.exitCode ?? child?.signalCode}; it printed:\n${output.slice(-4_000)}`;
  return {
    limitMb: options.limitMb,
    async start(onSent) {
      const [program, args] = options.command;
      child = spawn(program, args, {
        cwd: options.cwd,
        env: { ...process.env, NODE_ENV: 'production', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'advanced',
      });
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      watch = setInterval(read, 50);
      watch.unref();
      await once(child, 'spawn');
      return openChannel(child, onSent, why);
    },
    peakMb() {
      read();
      return peak;
    },
    killed: () => killedFor,
    output: () => output,
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      read();
      const exited = once(child, 'exit');
      child.disconnect();
      const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      clearInterval(watch);
    },
  };
}
