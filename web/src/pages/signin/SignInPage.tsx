/** Sign-in with a company API token (kept in this tab's session storage only). */
import { useState } from 'preact/hooks';
import { ApiError, verifyToken, type Me } from '../../http';
import { setToken, takeNotice } from '../../session';

export function SignInPage({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [notice] = useState(() => takeNotice());
  const [token, setTokenText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) {
      setError('Enter the API token of your company.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const me = await verifyToken(value);
      setToken(value);
      onSignedIn(me);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setError('The service did not accept this token: it is unknown or revoked. Check it and try again.');
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin" id="main">
      <form class="card signin-card" onSubmit={submit} noValidate aria-labelledby="signin-title">
        <div class="brand">
          <span class="brand-mark" aria-hidden="true" />
          <span class="brand-name">Template Messaging</span>
        </div>
        <h1 id="signin-title">Sign in</h1>
        <p class="muted">Use your company's API token (the one you send as <code>Authorization: Bearer …</code>). It is kept in this browser tab only.</p>
        {notice && !error && <p class="alert warn" role="status">{notice}</p>}
        <label class="field">
          <span>API token</span>
          <input
            type="password"
            name="token"
            autoComplete="off"
            spellcheck={false}
            value={token}
            onInput={(e) => setTokenText((e.target as HTMLInputElement).value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'signin-error' : undefined}
            required
            autoFocus
          />
        </label>
        {error && <p id="signin-error" class="alert error" role="alert">{error}</p>}
        <button type="submit" class="button primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
