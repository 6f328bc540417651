import { ExternalLink, Pencil, Star } from "lucide-react";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { IconButton } from "~/components/ui/icon-button";
import { IconLink } from "~/components/ui/icon-link";
import type { ResourceRecord } from "../../../server/content/resources.ts";
import { EditResourceDialog } from "./resource-dialogs";
import { RESOURCE_INTENTS } from "./schemas";

/** One resource of the library: its name, category, Featured badge, text and link, with open, edit and delete. */
export function ResourceAdminCard({ resource }: { resource: ResourceRecord }) {
  return (
    <Card data-testid="resource-card" className="flex h-full flex-col gap-3 p-5">
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 font-semibold wrap-anywhere text-fg">{resource.name}</h2>
        {resource.featured && (
          <Badge tone="warning" className="shrink-0">
            <Star aria-hidden="true" className="size-3" />
            Featured
          </Badge>
        )}
      </div>
      <div>
        <Badge>{resource.category}</Badge>
      </div>
      {resource.description && (
        <p className="text-sm leading-relaxed wrap-anywhere text-fg-muted">{resource.description}</p>
      )}
      <p className="font-mono text-xs break-all text-fg-muted">{resource.url}</p>
      <div className="mt-auto flex justify-end gap-1 border-t border-line pt-3">
        <IconLink icon={ExternalLink} label={`Open ${resource.name}`} href={resource.url} />
        <EditResourceDialog
          resource={resource}
          trigger={<IconButton icon={Pencil} label={`Edit ${resource.name}`} />}
        />
        <DeleteItemButton
          name={resource.name}
          description="The resource is removed from the library and from the public Resources page. This action cannot be undone."
          intent={RESOURCE_INTENTS.delete}
          fields={{ id: resource.id }}
        />
      </div>
    </Card>
  );
}
