/**
 * The "Verify" button and its verdict: "Verified up to seq N" with the audit key used (to compare
 * out of band), what a member without organization-wide read could check, or the first bad event
 * and why.
 */
import type { ApiError } from './api.js';
import { Icon } from './icons.js';
import type { VerifyResult } from './verify-activity.js';

/** Where Verify stands. */
export type VerifyState =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: VerifyResult }
  | { state: 'error'; error: ApiError };

function Verdict({ result }: { result: VerifyResult }) {
  if (!result.ok) {
    return (
      <div class="verdict bad" role="alert">
        <p>
          <Icon name="warning" />{' '}
          <strong>Verification failed{result.seq !== null ? ` at event seq ${result.seq}` : ''}.</strong>{' '}
          {result.message}
        </p>
        {result.event && (
          <p>
            That event: <code>{result.event.id}</code> ({result.event.type}).
          </p>
        )}
        <p class="help">Reason: {result.reason}.</p>
      </div>
    );
  }
  if (result.scope === 'loaded') {
    return (
      <div class="verdict partial" role="status">
        <p>
          <Icon name="check" /> <strong>The {result.events} loaded events match their hashes</strong> (seq{' '}
          {result.first} to {result.last}; consecutive events link).
        </p>
        <p class="help">
          The whole chain and its signed checkpoint can be verified only by members who read the
          organization’s history (owners and admins).
        </p>
      </div>
    );
  }
  return (
    <div class="verdict ok" role="status">
      <p>
        <Icon name="shield" /> <strong>Verified up to seq {result.seq}</strong>: {result.events} events
        chained from the first, and the checkpoint is signed by the organization’s audit key.
      </p>
      <p class="help">
        Audit key <code>{result.keyId}</code>: <code class="hash">{result.publicKey}</code>. Compare it with
        the key published out of band.
      </p>
    </div>
  );
}

/** The button and the verdict. */
export function VerifyPanel({ state, onVerify }: { state: VerifyState; onVerify(): void }) {
  return (
    <div class="verify">
      <button type="button" onClick={onVerify} disabled={state.state === 'running'}>
        {state.state === 'running' ? 'Verifying…' : 'Verify'}
      </button>
      {state.state === 'done' && <Verdict result={state.result} />}
      {state.state === 'error' && (
        <p class="field-error" role="alert">
          Could not verify: {state.error.message}
        </p>
      )}
    </div>
  );
}
