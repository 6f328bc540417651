/**
 * Phone numbers in E.164, the form SMS providers take: "+", a country code and the
 * number, 15 digits at most. Read by the account page's form in the browser and again
 * on the server, so nothing here may import server-only code.
 */

export const PHONE_NUMBER_MESSAGE =
  "Enter the number in international format: + then the country code and the number, for example +44 7700 900123.";

/** What people type between digits: spaces, dashes, dots and brackets. */
const SEPARATORS = /[\s\-.()]/g;
const TRUNK_PREFIX = /\(0\)/g;

/**
 * The number in E.164 ("+447700900123"), or null when it is not one. "00" before the
 * country code counts as "+". A "(0)" is the trunk prefix some write after the country
 * code ("+44 (0)7700 900123"), dialled only from inside the country: it is left out.
 */
export function toE164(typed: string): string | null {
  const compact = typed.trim().replace(TRUNK_PREFIX, "").replace(SEPARATORS, "").replace(/^00/, "+");
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : null;
}

/** "•••• 0123": enough for its owner to recognise the number, too little to reuse it. */
export function maskPhoneNumber(e164: string): string {
  return `•••• ${e164.slice(-4)}`;
}
