import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";

/** The four tabs of /admin/about, in the spec's order; the first is the page without `?tab=`. */
export const ABOUT_TABS = [
  { id: "biography", label: "Biography & Content" },
  { id: "certifications", label: "Certifications" },
  { id: "skills", label: "Skills" },
  { id: "timeline", label: "Timeline" },
] as const;
export type AboutTab = (typeof ABOUT_TABS)[number]["id"];

const isAboutTab = (value: string | null): value is AboutTab => ABOUT_TABS.some((tab) => tab.id === value);

/**
 * Radix tabs whose value is the URL's `?tab=`, so a reload or a shared link opens the
 * same tab. Every tab's data is on the page already: choosing one only replaces the
 * address (the route skips reloading its data for it).
 */
export function AboutTabs({ panels }: { panels: Record<AboutTab, ReactNode> }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const current: AboutTab = isAboutTab(requested) ? requested : "biography";
  return (
    <Tabs
      value={current}
      onValueChange={(value) =>
        setSearchParams(value === "biography" ? {} : { tab: value }, { replace: true, preventScrollReset: true })
      }
    >
      <TabsList aria-label="About page sections" className="max-sm:grid max-sm:grid-cols-2">
        {ABOUT_TABS.map((tab) => (
          <TabsTrigger key={tab.id} value={tab.id} data-testid={`tab-${tab.id}`}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {ABOUT_TABS.map((tab) => (
        <TabsContent key={tab.id} value={tab.id}>
          {panels[tab.id]}
        </TabsContent>
      ))}
    </Tabs>
  );
}

/** Whether two addresses of the page differ only in the tab shown (nothing to reload then). */
export function onlyTabChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  const without = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("tab");
    params.sort();
    return params.toString();
  };
  return without(current) === without(next);
}
