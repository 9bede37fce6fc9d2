/** Sign-in with an API token, kept for this browser tab only. */
import { useState } from 'preact/hooks';

export function SignIn({
  error,
  onToken,
}: {
  error?: string | undefined;
  onToken(token: string): Promise<string | null>;
}) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(error ?? null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) {
      setMessage('Enter an API token.');
      return;
    }
    setBusy(true);
    setMessage(await onToken(value));
    setBusy(false);
  };

  return (
    <main class="sign-in">
      <h1>Sign in to Latchkey</h1>
      <form onSubmit={submit} noValidate>
        <label for="api-token">API token</label>
        <input
          id="api-token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={token}
          aria-invalid={message ? 'true' : undefined}
          aria-describedby="api-token-help api-token-error"
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <p id="api-token-help" class="help">
          The token stays in this tab's session storage and is sent only to this server's API.
        </p>
        <p id="api-token-error" class="field-error" role="alert">
          {message}
        </p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
