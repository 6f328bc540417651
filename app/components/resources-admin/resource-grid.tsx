import { Library } from "lucide-react";
import { EmptyState } from "~/components/ui/empty-state";
import type { ResourceRecord } from "../../../server/content/resources.ts";
import { ResourceAdminCard } from "./resource-admin-card";

/** The library as cards, or the spec's empty state. */
export function ResourceGrid({ resources }: { resources: ResourceRecord[] }) {
  if (resources.length === 0) return <EmptyState icon={Library}>No resources found.</EmptyState>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="resource-grid">
      {resources.map((resource) => (
        <li key={resource.id}>
          <ResourceAdminCard resource={resource} />
        </li>
      ))}
    </ul>
  );
}
