/**
 * Where the API token comes from: `--token-file F` (`-` reads stdin), `LATCHKEY_TOKEN`, or the
 * config file. Every user of the machine can read a process's arguments (`ps`,
 * `/proc/<pid>/cmdline`) and the shell keeps them in its history, so `--token` (kept, as scripts
 * use it) warns each time, the launcher hands its value to the CLI through the environment rather
 * than another process's arguments, and `config set token` reads the token from stdin or asks for
 * it without echo.
 */
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './exit-codes.js';

/** The ways to give a token, for messages. */
export const TOKEN_SOURCES =
  'set LATCHKEY_TOKEN, give --token-file F (- reads stdin), or keep it with `latchkey config set token` (it reads the token from stdin)';

/** The warning `--token` prints; its value is never repeated. */
export const TOKEN_ARGUMENT_WARNING = `warning: a token given as --token is visible to other users of this machine (ps) and stays in your shell history; ${TOKEN_SOURCES}.`;

/** Where the launcher puts a `--token` value for the CLI it starts (an environment, not arguments). */
const TOKEN_ARGUMENT_VARIABLE = 'LATCHKEY_TOKEN_ARGUMENT';

/**
 * The `--token` value, from the option or from the launcher, taken out of `env` so no process this
 * one starts inherits it.
 */
export function takeTokenArgument(option: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const handed = env[TOKEN_ARGUMENT_VARIABLE];
  delete env[TOKEN_ARGUMENT_VARIABLE];
  const token = option ?? handed;
  return token === undefined ? undefined : checkToken(token, '--token');
}

/** A token as read: one run of printable ASCII (it goes into an HTTP header), whitespace around it dropped. */
function checkToken(text: string, where: string): string {
  const token = text.trim();
  if (token === '') throw new CliError(`No token in ${where}.`, EXIT.usage);
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new CliError(`${where} does not hold one token (one line of printable characters).`, EXIT.usage);
  }
  return token;
}

/** The token in `path`, or on stdin for `-` (a pipe or a file, not a terminal, where it would show). */
export function readTokenFile(path: string, stdinIsTTY = Boolean(process.stdin.isTTY)): string {
  if (path === '-' && stdinIsTTY) {
    throw new CliError(
      '--token-file - reads the token from a pipe, not a terminal: pipe it in, or keep it with `latchkey config set token`, which asks for it without echo.',
      EXIT.usage,
    );
  }
  let text: string;
  try {
    // fd 0 read synchronously: nothing has opened process.stdin yet, so it is still a plain blocking read.
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new CliError(
      `Cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return checkToken(text, path === '-' ? 'stdin' : path);
}

/** Reads a line typed at a terminal without showing it. Ctrl-C cancels. */
function readHiddenLine(input: NodeJS.ReadStream, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new CliError('Cancelled: nothing was saved.'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}

/**
 * The token for `config set token`: asked for without echo on a terminal, else read from stdin
 * (`… | latchkey config set token`).
 */
export async function readTokenInput(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  if (input.isTTY) {
    output.write('API token (not shown): ');
    return checkToken(await readHiddenLine(input, output), 'what was typed');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.from(chunk as Buffer));
  return checkToken(Buffer.concat(chunks).toString('utf8'), 'stdin');
}
