import type { ReactNode } from "react";
import type { ShouldRevalidateFunction } from "react-router";
import { useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "./tabs";

export interface UrlTab<Id extends string> {
  id: Id;
  label: string;
}

/**
 * Radix tabs whose value is the URL's `?tab=`, so a reload or a shared link opens the
 * same tab; the first tab is the page without `?tab=`. Every panel is on the page
 * already: choosing a tab only replaces the address (pair the route with
 * `skipRevalidationForTabs`, so the page's data is not read again for it).
 */
export function UrlTabs<Id extends string>({
  tabs,
  label,
  panels,
  listClassName,
  keepMounted = false,
}: {
  tabs: readonly UrlTab<Id>[];
  /** Names the tab list for assistive technology. */
  label: string;
  panels: Record<Id, ReactNode>;
  listClassName?: string;
  /**
   * Keeps every panel rendered (the others hidden), so that a form typed into on one tab
   * still holds what was typed after a look at another tab. Radix unmounts a panel that
   * is not shown, and a form's state with it.
   */
  keepMounted?: boolean;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const first = tabs[0]?.id;
  const current = tabs.find((tab) => tab.id === requested)?.id ?? first;
  return (
    <Tabs
      value={current}
      onValueChange={(value) =>
        setSearchParams(
          (params) => {
            const next = new URLSearchParams(params);
            if (value === first) next.delete("tab");
            else next.set("tab", value);
            return next;
          },
          { replace: true, preventScrollReset: true },
        )
      }
    >
      <TabsList aria-label={label} className={listClassName}>
        {tabs.map((tab) => (
          <TabsTrigger key={tab.id} value={tab.id} data-testid={`tab-${tab.id}`}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map((tab) => (
        <TabsContent
          key={tab.id}
          value={tab.id}
          {...(keepMounted ? { forceMount: true as const, hidden: tab.id !== current } : {})}
        >
          {panels[tab.id]}
        </TabsContent>
      ))}
    </Tabs>
  );
}

/** Whether two addresses of the page differ only in the tab shown. */
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

/** A route's shouldRevalidate for UrlTabs: choosing a tab reads nothing again; anything else as usual. */
export const skipRevalidationForTabs: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod === undefined && onlyTabChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate);
