import { parsePhoneNumberFromString } from "libphonenumber-js";

/**
 * A typed phone number in E.164 ("+447700900123"), the form SMS providers take and the
 * send limits count by, or null when it is not one. "00" before the country code counts
 * as "+". libphonenumber-js reads the number as its country writes numbers: a trunk
 * prefix written after the country code ("+44 07700 900123", "+44 (0)7700 900123",
 * dialled only from inside the country) is left out, and kept where it is part of the
 * number (Italy's "+39 06…"); a number too short or too long for its country, or a
 * country code that does not exist, is not one. Only the length is checked, not the
 * range: numbers set aside for tests and fiction (+44 7700 900xxx) pass.
 *
 * Server-side only: its metadata would add about 30 KB (gzip) to the account page,
 * whose form checks the shape alone (phone-number.ts).
 */
export function toE164(typed: string): string | null {
  const international = typed.trim().replace(/^00/, "+");
  if (!international.startsWith("+")) return null;
  const number = parsePhoneNumberFromString(international);
  return number?.isPossible() ? number.number : null;
}
