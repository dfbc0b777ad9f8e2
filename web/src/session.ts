/** The signed-in session: the API token lives in sessionStorage (gone when the tab closes). */

/** sessionStorage key of the API token. */
export const TOKEN_KEY = 'tms.token';
/** sessionStorage key of a message the sign-in page shows once (e.g. why the user was signed out). */
export const NOTICE_KEY = 'tms.signin.notice';

/** The stored API token, or null. */
export function getToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores the API token. */
export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** Forgets the API token. */
export function clearToken(): void {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage unavailable: nothing to clear
  }
}

/** Leaves a message for the sign-in page. */
export function setNotice(message: string): void {
  try {
    sessionStorage.setItem(NOTICE_KEY, message);
  } catch {
    // storage unavailable: the sign-in page shows no notice
  }
}

/** Reads (and removes) the sign-in page's message. */
export function takeNotice(): string | null {
  try {
    const message = sessionStorage.getItem(NOTICE_KEY);
    sessionStorage.removeItem(NOTICE_KEY);
    return message;
  } catch {
    return null;
  }
}
