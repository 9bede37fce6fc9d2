/** The core option `checkpointOrigin`: the deployment's part of every checkpoint origin line. */
import { isValidKeyName } from '../note/note-key.js';

/** The default origin when the host names none. */
const DEFAULT_CHECKPOINT_ORIGIN = 'latchkey.local';

/**
 * The option, checked: the origin line is also the note's key name, so it may hold no whitespace,
 * no `+` and no control characters (a `+` would make the verifier key string ambiguous).
 */
export function toCheckpointOrigin(option: string | undefined): string {
  const origin = option ?? DEFAULT_CHECKPOINT_ORIGIN;
  if (!isValidKeyName(origin) || origin.endsWith('/')) {
    throw new TypeError(
      'checkpointOrigin must be a schema-less URL such as secrets.example.com: no whitespace, no "+", no trailing "/".',
    );
  }
  return origin;
}
