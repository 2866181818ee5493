/**
 * Why the user is on the sign-in page, when the app sent them there itself: kept in this tab's sessionStorage, so it
 * also survives the trip through a provider's end-session page (which returns to the fixed /login address).
 */
const KEY = 'hearth_sign_in_reason';

const REASONS = ['session_idle', 'signed_out'] as const;

/** session_idle: the app signed out a session left unused too long; signed_out: the user pressed Sign out. */
export type SignInReason = (typeof REASONS)[number];

export function leaveSignInReason(reason: SignInReason): void {
  try {
    sessionStorage.setItem(KEY, reason);
  } catch {
    // Storage refused (private mode): sign-in just shows no reason.
  }
}

/** The reason left for the sign-in page, once: reading it removes it. */
export function takeSignInReason(): SignInReason | null {
  try {
    const reason = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return REASONS.find((known) => known === reason) ?? null;
  } catch {
    return null;
  }
}
