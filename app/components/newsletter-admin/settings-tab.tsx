import type { NewsletterStats } from "../../../server/newsletter/admin.ts";
import type { NewsletterSettingsForEditor } from "../../../server/newsletter/settings.ts";
import { NewsletterSettingsCard } from "./settings-card";
import { NewsletterStatCards } from "./stat-cards";
import { TestEmailCard } from "./test-email-card";

export interface NewsletterSettingsTabProps {
  stats: NewsletterStats;
  settings: NewsletterSettingsForEditor;
  /** Admins change the settings and send test emails; editors read them. */
  canEdit: boolean;
}

/**
 * The Newsletter Settings tab of /admin/home: four counters, the email settings and
 * the test email. Its forms post the intents of settings-actions.server.ts to the
 * page's action.
 */
export function NewsletterSettingsTab({ stats, settings, canEdit }: NewsletterSettingsTabProps) {
  return (
    <div className="flex flex-col gap-6">
      <NewsletterStatCards stats={stats} cards={["total", "active", "pending", "newThisWeek"]} />
      <div className="grid gap-6 lg:grid-cols-2">
        <NewsletterSettingsCard settings={settings} canEdit={canEdit} />
        {canEdit && <TestEmailCard />}
      </div>
    </div>
  );
}
