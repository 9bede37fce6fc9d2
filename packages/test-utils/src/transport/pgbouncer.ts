/**
 * A real PgBouncer (Debian's `pgbouncer`) in front of a PostgreSQL server, for tests that must hold
 * behind a transaction-mode pooler: each transaction gets whatever server connection is free, so
 * anything that leans on session state (session `SET`, `LISTEN`, session advisory locks, named
 * prepared statements) breaks there and not elsewhere. Started on a free loopback port with a
 * configuration of its own in a temporary directory, stopped with `stop()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running PgBouncer. */
export interface RunningPgBouncer {
  /** `target` with its host and port replaced by PgBouncer's. */
  readonly url: string;
  readonly port: number;
  /** What PgBouncer printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/** Where the binary is: `PGBOUNCER`, Debian's path, or the PATH. */
export function pgBouncerBinary(): string | null {
  const candidates = [process.env['PGBOUNCER'], '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  return null;
}

/**
 * The binary, for a test that needs it: with `CI=true` a missing pgbouncer throws (a failure, never
 * a skip); elsewhere null, and the test is skipped with the reason.
 */
export function pgBouncerForTests(): string | null {
  const binary = pgBouncerBinary();
  if (!binary && process.env['CI'] === 'true') {
    throw new Error('pgbouncer is required in CI and is not installed (apt-get install pgbouncer)');
  }
  return binary;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function accepting(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const began = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - began > 10_000) throw new Error(`pgbouncer did not listen within 10 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts PgBouncer in `pool_mode = transaction` in front of `target` (a `postgres://` URL of a
 * server with trust authentication, as in CI). Throws when the binary is missing.
 */
export async function startPgBouncer(target: string, poolSize = 20): Promise<RunningPgBouncer> {
  const binary = pgBouncerBinary();
  if (!binary)
    throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer; or set PGBOUNCER)');
  const upstream = new URL(target);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-pgbouncer-'));
  // PgBouncer refuses to run as root; it then runs as `nobody`, who must read its files.
  chmodSync(dir, 0o755);
  const user = decodeURIComponent(upstream.username || 'postgres');
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const ini = [
    '[databases]',
    `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir =`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    'server_reset_query =',
    'ignore_startup_parameters = extra_float_digits',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'nobody'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const output = () => printed;
  try {
    await accepting(port, child, output);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.href,
    port,
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
