import { dictionary } from "@zxcvbn-ts/language-common";
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
} from "./password-length.ts";

/**
 * Password rules for every way a password is set (CLI, invitation, owner setup,
 * reset, change): 12 to 128 characters and not one of the ~49,000 most common
 * passwords (the list ships with @zxcvbn-ts/language-common).
 */

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH };

const COMMON_PASSWORDS = new Set(dictionary["passwords-common"].map((password) => password.toLowerCase()));

/** The reason the password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE;
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG_MESSAGE;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    return "This password is too common. Please choose a less predictable one.";
  }
  return null;
}
