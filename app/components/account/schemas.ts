import { z } from "zod";
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
} from "../../../server/auth/password-length.ts";
import { looksLikePhoneNumber, PHONE_NUMBER_MESSAGE } from "../../../server/sms/phone-number.ts";

/**
 * The forms of /admin/account, read by the browser and again by the action. What only
 * the server knows (a common password, a wrong current password or code) comes back
 * from the action beside the same fields.
 */

export const nameSchema = z.object({
  name: z
    .string({ message: "Name is required." })
    .trim()
    .min(1, "Name is required.")
    .max(100, "Name must be at most 100 characters long.")
    // As account creation stores names (server/auth/users.ts): one space between words.
    .transform((name) => name.replace(/\s+/g, " ")),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ message: "Enter your current password." }),
    newPassword: z
      .string({ message: "Enter a new password." })
      .min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE)
      .max(MAX_PASSWORD_LENGTH, PASSWORD_TOO_LONG_MESSAGE),
    confirmPassword: z.string({ message: "Type the new password again." }),
    revokeOtherSessions: z.boolean().default(false),
  })
  .superRefine((input, context) => {
    if (input.newPassword === input.currentPassword) {
      context.addIssue({
        code: "custom",
        path: ["newPassword"],
        message: "Choose a password different from the current one.",
      });
    } else if (input.confirmPassword !== input.newPassword) {
      context.addIssue({ code: "custom", path: ["confirmPassword"], message: "The two new passwords do not match." });
    }
  });

/** A form that asks for the password again before a sensitive change. */
const passwordConfirmation = (message: string) =>
  z.object({ password: z.string({ message }).max(MAX_PASSWORD_LENGTH, PASSWORD_TOO_LONG_MESSAGE) });

export const totpEnableSchema = passwordConfirmation("Enter your password to set up two-factor authentication.");
export const totpDisableSchema = passwordConfirmation("Enter your password to turn off two-factor authentication.");
export const backupCodesSchema = passwordConfirmation("Enter your password to create new backup codes.");

const CODE_MESSAGE = "Enter the 6-digit code from your authenticator app.";

/** Six digits, spaces allowed (apps show "123 456"). */
export const totpCodeSchema = z.object({
  code: z
    .string({ message: CODE_MESSAGE })
    .refine((code) => /^\d{6}$/.test(code.replace(/\s+/g, "")), CODE_MESSAGE)
    .transform((code) => code.replace(/\s+/g, "")),
});

export const phoneEnrolSchema = passwordConfirmation(
  "Enter your password to set up sign-in codes by text message.",
).extend({
  phoneNumber: z
    .string({ message: "Enter your mobile phone number." })
    .max(40, PHONE_NUMBER_MESSAGE)
    .refine(looksLikePhoneNumber, PHONE_NUMBER_MESSAGE),
});
export const phoneRemoveSchema = passwordConfirmation("Enter your password to remove your phone number.");

const PHONE_CODE_MESSAGE = "Enter the 6-digit code from the text message.";

export const phoneCodeSchema = z.object({
  code: z
    .string({ message: PHONE_CODE_MESSAGE })
    .refine((code) => /^\d{6}$/.test(code.replace(/\s+/g, "")), PHONE_CODE_MESSAGE)
    .transform((code) => code.replace(/\s+/g, "")),
});

export const sessionSchema = z.object({ sessionId: z.string({ message: "Which session?" }).max(200) });

export const passkeySchema = z.object({ passkeyId: z.string({ message: "Which passkey?" }).max(200) });

export const passkeyRenameSchema = passkeySchema.extend({
  name: z.string({ message: "Name is required." }).trim().min(1, "Name is required.").max(64, "At most 64 characters."),
});

export const noFieldsSchema = z.object({});
