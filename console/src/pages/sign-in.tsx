import { useState, type FormEvent } from 'react';
import { startSignIn, type SignInSettings } from '../oidc';
import { errorMessage } from '../gateway';
import { formText } from '../form';

/** Sign in at the issuer, or, on a gateway without console sign-in, with a pasted gateway key. */
export function SignInPage({
  signIn,
  notice,
  onKey,
}: {
  signIn: SignInSettings | null;
  notice: string | null;
  onKey: (key: string) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const withIssuer = async (): Promise<void> => {
    setBusy(true);
    try {
      await startSignIn(signIn!);
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  // The key is read from the form when it is sent, never kept in the page's state.
  const withKey = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    const key = formText(new FormData(form), 'key');
    form.reset();
    if (key === '') setProblem('Paste a gateway key first.');
    else onKey(key);
  };

  return (
    <main className="narrow" id="main">
      <h1>pipes-gateway console</h1>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {signIn ? (
        <>
          <p>Sign in with your organisation's account at {new URL(signIn.issuer).host}.</p>
          <button type="button" onClick={() => void withIssuer()} disabled={busy}>
            {notice && notice !== 'You have signed out.' ? 'Sign in again' : 'Sign in'}
          </button>
        </>
      ) : (
        <form onSubmit={withKey} className="stack">
          <p>
            This gateway has no sign-in configured for the console. Paste a gateway key to use it (for
            development: the key stays in this page's memory and is gone when you close or reload it).
          </p>
          <label htmlFor="key">Gateway key</label>
          <input id="key" name="key" type="password" autoComplete="off" spellCheck={false} required />
          <button type="submit">Open the console</button>
        </form>
      )}
    </main>
  );
}
