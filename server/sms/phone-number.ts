/**
 * Phone numbers as people type them, read by the account page's form in the browser
 * and again on the server, so nothing here may import server-only code. The server
 * turns them into E.164 (e164.ts).
 */

export const PHONE_NUMBER_MESSAGE =
  "Enter the number in international format: + then the country code and the number, for example +44 7700 900123.";

/** What people type between digits: spaces, dashes, dots and brackets. */
const SEPARATORS = /[\s\-.()]/g;

/**
 * Whether the typed text has the shape of an international number: "+" (or "00"), then
 * 8 to 15 digits among the separators people type. The form's first check; e164.ts's
 * toE164 has the last word.
 */
export function looksLikePhoneNumber(typed: string): boolean {
  return /^(\+|00)[1-9]\d{7,14}$/.test(typed.trim().replace(SEPARATORS, ""));
}

/** "•••• 0123": enough for its owner to recognise the number, too little to reuse it. */
export function maskPhoneNumber(e164: string): string {
  return `•••• ${e164.slice(-4)}`;
}
