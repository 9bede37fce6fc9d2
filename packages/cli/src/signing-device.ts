/**
 * The device that signs a push or a change request: the workload session's ephemeral device when a
 * session file is named, else the device this machine enrolled for the server and organization.
 * With a session, pushes are strict (the server refuses a workload's lenient push with 428): the
 * conflict mode defaults to strict, and `--conflict-mode lenient` is refused before anything is sent.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { sessionKey } from './workload-session.js';

/** The device's private key, or a one-line failure naming the file. */
export function readKey(file: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new CliError(`Cannot read the device key ${file}: ${(error as Error).message}`);
  }
}

/** The signing device's id and key. */
export function signingDevice(ctx: CommandContext, url: string, org: string): { id: string; key: KeyObject } {
  const open = ctx.session();
  if (open) return { id: open.session.device_id, key: sessionKey(open.session, open.file) };
  const device = ctx.config.state(url, org).device;
  if (!device) {
    throw new CliError(
      'This machine has no device for this server and organization: run `latchkey device enroll --name …` first (in CI: `latchkey login --workload …`).',
    );
  }
  return { id: device.id, key: readKey(device.keyFile) };
}

/** The conflict mode of a push: `given` when the user wrote one, else strict with a session, else lenient. */
export function conflictModeOf(given: string | undefined, ctx: CommandContext): 'lenient' | 'strict' {
  const mode = given ?? (ctx.session() ? 'strict' : 'lenient');
  if (mode !== 'lenient' && mode !== 'strict') {
    throw new CliError(`--conflict-mode must be lenient or strict, not "${mode}".`, EXIT.usage);
  }
  if (mode === 'lenient' && ctx.session()) {
    throw new CliError(
      'A workload session pushes strict always (every change names the version it was based on): drop --conflict-mode lenient.',
      EXIT.usage,
    );
  }
  return mode;
}
