import { Clock, ExternalLink } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import type { TipRecord } from "../../../server/content/tips.ts";
import { TIP_TYPE_LABELS } from "./schemas";

/** External Link or Coming Soon, the way the public card shows it (a coming-soon card has the warning badge there too). */
export function TipTypeBadge({ type }: { type: TipRecord["type"] }) {
  const Icon = type === "external" ? ExternalLink : Clock;
  return (
    <Badge tone={type === "external" ? "neutral" : "warning"} className="whitespace-nowrap">
      <Icon aria-hidden="true" className="size-3" />
      {TIP_TYPE_LABELS[type]}
    </Badge>
  );
}
