import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";

/** The tabs of /admin/newsletter, each loaded (and paginated) on its own. */
export const NEWSLETTER_TABS = [
  { id: "subscribers", label: "Subscribers" },
  { id: "suppressions", label: "Suppression List" },
  { id: "emails", label: "Email log" },
] as const;
export type NewsletterTab = (typeof NEWSLETTER_TABS)[number]["id"];

/** `?tab=…` of a tab; the first tab is the page without one. */
export function tabHref(tab: NewsletterTab): string {
  return tab === "subscribers" ? "?" : `?tab=${tab}`;
}

/**
 * Radix tabs whose value is the URL's `?tab=` (the loader reads it): choosing a tab
 * navigates, so a reload or a shared link keeps it. Arrow keys move between the tabs
 * and Enter opens one (manual activation: moving does not load every tab on the way).
 * Not the kit's UrlTabs, whose panels are all on the page already: here the loader
 * reads only the chosen tab, and a tab starts again from its first page without the
 * previous tab's search.
 */
export function NewsletterTabs({ current, children }: { current: NewsletterTab; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Tabs
      value={current}
      activationMode="manual"
      onValueChange={(value) => navigate(tabHref(value as NewsletterTab), { preventScrollReset: true })}
    >
      <TabsList aria-label="Newsletter sections">
        {NEWSLETTER_TABS.map((tab) => (
          <TabsTrigger key={tab.id} value={tab.id} data-testid={`tab-${tab.id}`}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value={current} className="flex flex-col gap-6">
        {children}
      </TabsContent>
    </Tabs>
  );
}
