import { Clock } from "lucide-react";
import { Card, CardDescription, CardTitle } from "~/components/ui/card";

/** The spec's Coming Soon note: this screen will hold more settings. */
export function ComingSoonNote() {
  return (
    <Card data-testid="settings-coming-soon" className="flex items-start gap-3 p-5">
      <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
      <div className="flex flex-col gap-1.5">
        <CardTitle>Coming Soon</CardTitle>
        <CardDescription>More site settings are coming soon.</CardDescription>
      </div>
    </Card>
  );
}
