/**
 * Entry of the dashboard: who is signed in, then the page for the current route; or, at `/embed`,
 * the page a host app frames for a portal session.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type ApiError, api, setApiToken, storedToken, storeToken } from './api.js';
import { EmbedApp } from './embed-app.js';
import { currentRoute } from './router.js';
import { SignIn } from './sign-in.js';
import { SignedInPages } from './signed-in-pages.js';
import { Status } from './states.js';
import type { Me } from './types.js';
// The styles, one concern per file, in cascade order (narrow-screen rules last).
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/forms.css';
import './styles/states.css';
import './styles/figures.css';
import './styles/webhooks.css';
import './styles/charts.css';
import './styles/tables-dialogs.css';
import './styles/activity.css';
import './styles/embed.css';
import './styles/changes.css';
import './styles/narrow.css';

type Session =
  | { state: 'checking' }
  | { state: 'signed-out'; error?: string }
  | { state: 'signed-in'; me: Me };

function App() {
  const [session, setSession] = useState<Session>({ state: 'checking' });

  // A stored token first; without one, the host's own sign-in (cookies) may already say who this is.
  const check = async (token: string | null) => {
    setApiToken(token);
    try {
      const me = await api<Me>('GET', '/me', undefined, token);
      setSession({ state: 'signed-in', me });
      return null;
    } catch (error) {
      const e = error as ApiError;
      if (token) storeToken(null);
      setApiToken(null);
      const message = e.status === 401 ? null : e.message;
      setSession({ state: 'signed-out', ...(message ? { error: message } : {}) });
      return e;
    }
  };

  useEffect(() => {
    void check(storedToken());
  }, []);

  if (session.state === 'checking') return <Status>Checking who is signed in…</Status>;
  if (session.state === 'signed-out') {
    return (
      <SignIn
        error={session.error}
        onToken={async (token) => {
          const error = await check(token);
          if (!error) storeToken(token);
          return error ? (error.status === 401 ? 'That API token was not accepted.' : error.message) : null;
        }}
      />
    );
  }
  return (
    <SignedInPages
      me={session.me}
      onSignOut={() => {
        storeToken(null);
        setApiToken(null);
        setSession({ state: 'signed-out' });
      }}
    />
  );
}

// `/embed` is the page a host app frames (a portal session); every other route is the dashboard.
const root = document.getElementById('app')!;
// The page's own "Loading…" line stays until it is removed: rendering adds beside it.
root.replaceChildren();
render(currentRoute() === '/embed' ? <EmbedApp /> : <App />, root);
