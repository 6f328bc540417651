import { formIntent } from "~/lib/form-action.server";
import {
  type AccountVisitor,
  changePassword,
  confirmPhoneEnrolment,
  confirmTotpEnrolment,
  createApiToken,
  deletePasskey,
  disableTotp,
  regenerateBackupCodes,
  removePhone,
  renamePasskey,
  revokeOtherSessions,
  revokeSession,
  sendPhoneCode,
  startPhoneEnrolment,
  startTotpEnrolment,
  updateName,
} from "../../../server/auth/account-changes.ts";
import {
  backupCodesSchema,
  changePasswordSchema,
  nameSchema,
  noFieldsSchema,
  passkeyRenameSchema,
  passkeySchema,
  phoneCodeSchema,
  phoneEnrolSchema,
  phoneRemoveSchema,
  sessionSchema,
  totpCodeSchema,
  totpDisableSchema,
  totpEnableSchema,
} from "./schemas";
import type { AccountDetails } from "./shared";

/** The intents of /admin/account for this visitor; what to show once goes into `details`. */
export function accountIntents(visitor: AccountVisitor, details: AccountDetails) {
  return {
    "update-name": formIntent({
      schema: nameSchema,
      failure: "Could not update your name",
      resetOnSuccess: false,
      async run({ name }) {
        await updateName(visitor, name);
        return "Your name has been updated.";
      },
    }),
    "change-password": formIntent({
      schema: changePasswordSchema,
      failure: "The password was not changed",
      async run({ currentPassword, newPassword, revokeOtherSessions }) {
        await changePassword(visitor, { currentPassword, newPassword, revokeOtherSessions });
        return revokeOtherSessions
          ? "Your password has been changed and your other sessions signed out."
          : "Your password has been changed.";
      },
    }),
    "revoke-session": formIntent({
      schema: sessionSchema,
      failure: "Could not sign out the session",
      async run({ sessionId }) {
        return (await revokeSession(visitor, sessionId))
          ? "The session has been signed out."
          : "That session has already ended.";
      },
    }),
    "revoke-other-sessions": formIntent({
      schema: noFieldsSchema,
      failure: "Could not sign out your other sessions",
      async run() {
        await revokeOtherSessions(visitor);
        return "All your other sessions have been signed out.";
      },
    }),
    "totp-enable": formIntent({
      schema: totpEnableSchema,
      failure: "Could not set up two-factor authentication",
      async run({ password }) {
        details.enrolment = await startTotpEnrolment(visitor, password);
        return "Scan the QR code, then enter the code your app shows.";
      },
    }),
    "totp-verify": formIntent({
      schema: totpCodeSchema,
      failure: "Two-factor authentication is not on",
      async run({ code }) {
        details.backupCodes = await confirmTotpEnrolment(visitor, code);
        return "Two-factor authentication is on. Save your backup codes now: they are shown only once.";
      },
    }),
    "totp-disable": formIntent({
      schema: totpDisableSchema,
      failure: "Two-factor authentication is still on",
      async run({ password }) {
        await disableTotp(visitor, password);
        return "Two-factor authentication is off.";
      },
    }),
    "backup-codes": formIntent({
      schema: backupCodesSchema,
      failure: "No new backup codes were created",
      async run({ password }) {
        details.backupCodes = await regenerateBackupCodes(visitor, password);
        return "New backup codes created; the old ones no longer work. Save these now: they are shown only once.";
      },
    }),
    "phone-enrol": formIntent({
      schema: phoneEnrolSchema,
      failure: "No code was sent",
      async run({ password, phoneNumber }) {
        const stored = await startPhoneEnrolment(visitor, { password, phoneNumber });
        return `A code was sent to ${stored}. Enter it to turn on sign-in codes by text message.`;
      },
    }),
    "phone-resend": formIntent({
      schema: noFieldsSchema,
      failure: "No new code was sent",
      async run() {
        await sendPhoneCode(visitor);
        return "A new code was sent. The previous one no longer works.";
      },
    }),
    "phone-verify": formIntent({
      schema: phoneCodeSchema,
      failure: "Sign-in codes by text message are not on",
      async run({ code }) {
        await confirmPhoneEnrolment(visitor, code);
        return "Sign-in codes by text message are on.";
      },
    }),
    "phone-remove": formIntent({
      schema: phoneRemoveSchema,
      failure: "The phone number was not removed",
      async run({ password }) {
        await removePhone(visitor, password);
        return "Your phone number has been removed.";
      },
    }),
    "passkey-rename": formIntent({
      schema: passkeyRenameSchema,
      failure: "The passkey was not renamed",
      async run({ passkeyId, name }) {
        await renamePasskey(visitor, { id: passkeyId, name });
        return "Passkey renamed.";
      },
    }),
    "passkey-delete": formIntent({
      schema: passkeySchema,
      failure: "The passkey was not removed",
      async run({ passkeyId }) {
        await deletePasskey(visitor, passkeyId);
        return "Passkey removed.";
      },
    }),
    "api-token": formIntent({
      schema: noFieldsSchema,
      failure: "No API token was created",
      async run() {
        details.apiToken = await createApiToken(visitor);
        return "API token created. Copy it now: it is shown only once.";
      },
    }),
  };
}
