/**
 * The embedded page (`/dashboard/embed?session=…#<token>`), framed by the host app: the token is
 * taken from the fragment once and kept in memory only; the page shows the sections its session
 * opens, never a sign-in or sign-out, tells the parent its height, and when the session ends (its
 * time is up, or any answer is 401 because it was revoked) shows so and tells the parent, which
 * mints a fresh URL.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, api, setApiToken, setUnauthorizedHandler } from './api.js';
import { applyEmbedLook } from './embed-look.js';
import { reportHeight, setParentOrigin, tellParent } from './embed-parent.js';
import { EmbedSections } from './embed-sections.js';
import { takeFragmentToken } from './embed-token.js';
import { ErrorNote, Status } from './states.js';
import type { Me, PortalSession } from './types.js';

type State =
  | { state: 'checking' }
  | { state: 'ready'; me: Me; session: PortalSession }
  | { state: 'ended' }
  | { state: 'error'; error: ApiError };

/** The longest wait `setTimeout` takes (about 24.8 days; a session lasts a day at most). */
const MAX_DELAY = 2 ** 31 - 1;

/** The embedded page's root. */
export function EmbedApp() {
  const [state, setState] = useState<State>({ state: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const frame = useRef<HTMLDivElement>(null);
  const token = useRef<string | null>(null);
  const ended = useRef(false);

  const end = useCallback(() => {
    token.current = null;
    setApiToken(null);
    setState({ state: 'ended' });
    if (ended.current) return;
    ended.current = true;
    tellParent({ type: 'latchkey:expired' });
  }, []);

  useEffect(() => {
    applyEmbedLook(location.search);
    document.title = 'Latchkey';
    // A parent that sets a new fragment on the same frame hands over a new session.
    const onHash = () => location.hash && setAttempt((n) => n + 1);
    addEventListener('hashchange', onHash);
    const stop = frame.current ? reportHeight(frame.current) : undefined;
    return () => {
      removeEventListener('hashchange', onHash);
      stop?.();
    };
  }, []);

  useEffect(() => {
    const fresh = takeFragmentToken();
    if (fresh) {
      token.current = fresh;
      ended.current = false;
    }
    if (!token.current) return end();
    setApiToken(token.current);
    setUnauthorizedHandler(end);
    let current = true;
    setState({ state: 'checking' });
    Promise.all([api<PortalSession>('GET', '/portal-session'), api<Me>('GET', '/me')]).then(
      ([session, me]) => {
        if (!current) return;
        setParentOrigin(session.origin);
        setState({ state: 'ready', me, session });
      },
      (error: ApiError) => current && (error.status === 401 ? end() : setState({ state: 'error', error })),
    );
    return () => {
      current = false;
    };
  }, [attempt, end]);

  const expiresAt = state.state === 'ready' ? state.session.expires_at : null;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(end, Math.min(Math.max(Date.parse(expiresAt) - Date.now(), 0), MAX_DELAY));
    return () => clearTimeout(timer);
  }, [expiresAt, end]);

  return (
    <div class="embed" ref={frame} data-state={state.state}>
      {state.state === 'checking' && <Status>Opening the portal…</Status>}
      {state.state === 'error' && <ErrorNote error={state.error} onRetry={() => setAttempt((n) => n + 1)} />}
      {state.state === 'ended' && <SessionEnded />}
      {state.state === 'ready' && <EmbedSections me={state.me} session={state.session} />}
    </div>
  );
}

function SessionEnded() {
  return (
    <main class="embed-ended">
      <h1>This session has ended</h1>
      <p>
        The page around this panel opens a new session when it loads. Reload it, or sign in to it again, to
        carry on.
      </p>
    </main>
  );
}
