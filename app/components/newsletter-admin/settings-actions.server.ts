import { formIntent } from "~/lib/form-action.server";
import type { Viewer } from "../../../server/auth/guards.ts";
import { Forbidden } from "../../../server/errors.ts";
import { updateNewsletterSettings } from "../../../server/newsletter/settings.ts";
import { sendTestEmail, testEmailMessage } from "../../../server/newsletter/test-email.ts";
import { testEmailSchema } from "../../../server/newsletter/test-email-input.ts";
import type { AppServices } from "../../../server/services.ts";
import { newsletterSettingsSchema } from "./schemas";

/**
 * The intents of the Newsletter Settings tab, for the action of the page that shows
 * it. Both touch subscriber-facing mail, so each requires the admin role, whatever
 * role the page itself asks for (editors see the settings read-only).
 */
export function newsletterSettingsIntents(services: AppServices, viewer: Viewer) {
  const requireAdmin = () => {
    if (!viewer.roles.isAdmin) throw new Forbidden("Only administrators can change the newsletter settings.");
  };
  return {
    "save-settings": formIntent({
      schema: newsletterSettingsSchema,
      failure: "Failed to update setting",
      resetOnSuccess: false,
      async run(settings) {
        requireAdmin();
        // The settings show on no public page: a save leaves the published pages' cache alone.
        await updateNewsletterSettings({ db: services.db, actorId: viewer.user.id, onChange: () => {} }, settings);
        return "Setting updated successfully!";
      },
    }),
    "send-test-email": formIntent({
      schema: testEmailSchema,
      failure: "Failed to send test email",
      async run(payload) {
        requireAdmin();
        await sendTestEmail(services.db, services, payload);
        services.mail.wake();
        return testEmailMessage(services.config.mail);
      },
    }),
  };
}
