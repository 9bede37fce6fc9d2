/** What checking an activity export can find, and how a failure names its line. */
import type { ChainHead } from '../activity/chain-form.js';
import type { Checkpoint } from '../activity/checkpoint/checkpoint-form.js';

/** Why an export does not verify. */
export type ExportFault =
  /** Not JSON, or not an event or checkpoint. */
  | 'malformed'
  /** The line's content does not match its hash, or a later line was chained to other content. */
  | 'edited'
  /** Events are missing before this line. */
  | 'deleted'
  /** This line is out of order. */
  | 'reordered'
  /** The export ends before the event its checkpoint names, or without the checkpoint. */
  | 'truncated'
  /** The checkpoint is not signed by the given key, or names another head than the last event. */
  | 'checkpoint_invalid'
  /** An event or the checkpoint names another organization than the one expected. */
  | 'wrong_organization';

/** What {@link verifyActivityExport} finds: the export verifies, or its first bad line and why. */
export type ExportVerdict =
  | {
      ok: true;
      /** Events checked. */
      events: number;
      /** The last event's place in the chain (0 for none). */
      head: ChainHead;
      /** The closing checkpoint, when the export has one (verified when a key was given). */
      checkpoint: Checkpoint | null;
    }
  | { ok: false; line: number; reason: ExportFault; message: string };

/** The verdict that `line` fails for `reason`. */
export const fail = (line: number, reason: ExportFault, message: string): ExportVerdict => ({
  ok: false,
  line,
  reason,
  message,
});
