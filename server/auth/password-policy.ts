import { createRequire } from "node:module";
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

/**
 * The list, read when a password is first checked: passwords are set rarely, and the
 * list costs about 8 MB of heap that a server busy with visitors would hold for nothing
 * (decision 018). Synchronous, as Better Auth's hooks call passwordProblem().
 */
let commonPasswords: Set<string> | undefined;
function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    const { dictionary } = createRequire(import.meta.url)(
      "@zxcvbn-ts/language-common",
    ) as typeof import("@zxcvbn-ts/language-common");
    commonPasswords = new Set(dictionary["passwords-common"].map((common) => common.toLowerCase()));
  }
  return commonPasswords.has(password.toLowerCase());
}

/** The reason the password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE;
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG_MESSAGE;
  if (isCommonPassword(password)) {
    return "This password is too common. Please choose a less predictable one.";
  }
  return null;
}
