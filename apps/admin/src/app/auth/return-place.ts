/**
 * The page a signed-in user is on, kept in this tab's sessionStorage (so it outlasts a reload and the trip through a
 * provider's end-session page) with the user it belongs to. When the app signs a session out because it went idle, the
 * page is kept for that user's next sign-in here; anyone else signing in on this browser starts afresh, and so does
 * whoever signs in after an explicit sign-out.
 */
const KEY = 'hearth_place';

interface Place {
  userId: string;
  path: string;
  /** Set by the idle sign-out: the next sign-in of the same user returns here. */
  resume: boolean;
}

/**
 * A path of this app to send a signed-in user to: rooted, and never read by a browser as another host: not `//host`,
 * nor `/\host` (a backslash counts as a slash), nor one with control characters (a tab or newline is dropped, so
 * `/<tab>/host` is `//host`).
 */
export function safeAppPath(path: string | null | undefined): string | null {
  if (!path?.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  return [...path].some((c) => c < ' ' || c === '\u007f') ? null : path;
}

function read(): Place | null {
  try {
    const place: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (!place || typeof place !== 'object') return null;
    const { userId, path, resume } = place as Record<string, unknown>;
    return typeof userId === 'string' && typeof path === 'string' && typeof resume === 'boolean' ? { userId, path, resume } : null;
  } catch {
    return null;
  }
}

function write(place: Place | null): void {
  try {
    if (place) sessionStorage.setItem(KEY, JSON.stringify(place));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): signing in again starts on the home page.
  }
}

/** The app shell notes every page it shows; a new one replaces a place kept for a return, which is then over. */
export const notePlace = (userId: string, path: string): void => write({ userId, path, resume: false });

/** The app signed this tab's session out because it went idle: its user comes back to the page noted last. */
export function keepPlaceForReturn(): void {
  const place = read();
  if (place) write({ ...place, resume: true });
}

/** An explicit sign-out: there is nothing to come back to. */
export const forgetPlace = (): void => write(null);

/** Where `userId`, signed in again, returns to: the page kept at their idle sign-out in this tab, if any. */
export function returnPlaceFor(userId: string): string | null {
  const place = read();
  return place?.resume && place.userId === userId ? safeAppPath(place.path) : null;
}
