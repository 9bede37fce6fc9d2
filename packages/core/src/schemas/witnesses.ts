/** The schemas of the transparency log's witnesses and their cosignatures. */
import { z } from 'zod';
import { isValidKeyName } from '../activity/note/note-key.js';
import { text } from './text.js';

/** A signed-note key name, as witnesses name themselves (e.g. `witness.example.com/w1`). */
const WitnessName = text()
  .min(1)
  .max(200)
  .refine(isValidKeyName, 'a note key name: no whitespace, no "+", no control characters');

/** Body of `POST …/activity/witnesses`. */
export const CreateWitnessBody = z.strictObject({
  name: WitnessName,
  public_key: text()
    .max(400)
    .describe(
      'The witness’s Ed25519 public key: raw 32 bytes in standard base64, or its C2SP verifier key <name>+<hex key hash>+<base64(0x04 || key)> with the same name',
    ),
});

/** A registered witness. */
export const WitnessResponse = z.strictObject({
  name: z.string(),
  public_key: z.string().describe('Raw Ed25519 public key, standard base64'),
  verifier_key: z.string().describe('Its C2SP verifier key for cosignatures (algorithm 0x04)'),
  created_at: z.string(),
});

/** Body of `POST …/activity/checkpoint/cosignatures`. */
export const CosignatureBody = z.strictObject({
  cosignature: text()
    .max(1_000)
    .describe(
      'A C2SP tlog-cosignature/v1 line `— <witness name> <base64(key hash || timestamp || signature)>`, or a note of this log carrying it',
    ),
  checkpoint: text()
    .max(4_000)
    .optional()
    .describe(
      'The checkpoint body the witness cosigned (origin line, tree size, root hash); default: the cosignature is for the current head',
    ),
});

/** What a kept cosignature answers. */
export const CosignatureResponse = z.strictObject({
  witness: z.string(),
  tree_size: z.number().int(),
  root_hash: z.string(),
  timestamp: z.number().int(),
});
