import { Plus } from "lucide-react";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { AddResourceDialog } from "~/components/resources-admin/resource-dialogs";
import { ResourceGrid } from "~/components/resources-admin/resource-grid";
import {
  addResourceSchema,
  deleteResourceSchema,
  editResourceSchema,
  RESOURCE_CATEGORY_FILTERS,
  RESOURCE_INTENTS,
} from "~/components/resources-admin/schemas";
import { Button } from "~/components/ui/button";
import { FilterLinks } from "~/components/ui/filter-links";
import { PageHeader } from "~/components/ui/page-header";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { itemIntents } from "~/lib/item-intents.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { resourceCategoryFilter } from "../../../server/content/resource-input.ts";
import { createResource, deleteResource, listResources, updateResource } from "../../../server/content/resources.ts";
import type { Route } from "./+types/resources";

/**
 * /admin/resources (editors and admins): the resource library as cards, filtered by
 * category, added, edited and deleted. The spec's original showed no error feedback
 * here; this screen shows the same messages and toasts as every other.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Resources");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const category = resourceCategoryFilter.parse(new URL(request.url).searchParams.get("category"));
  return { resources: await listResources(services.db, { category }), category };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const store = contentStoreFor(context);
  return runFormAction(
    await readForm(request),
    itemIntents({
      thing: "resource",
      intents: RESOURCE_INTENTS,
      schemas: { create: addResourceSchema, update: editResourceSchema, delete: deleteResourceSchema },
      create: (resource) => createResource(store, resource),
      update: (id, changes) => updateResource(store, id, changes),
      remove: (id) => deleteResource(store, id),
    }),
    services.logger,
  );
}

export const clientAction = toastActionAnswer;

export default function AdminResourcesPage({ loaderData }: Route.ComponentProps) {
  const { resources, category } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Resources"
        description="The library of the public Resources page; Services are listed here only."
        action={
          <AddResourceDialog
            category={category}
            trigger={
              <Button data-testid="add-resource">
                <Plus aria-hidden="true" className="size-4" />
                Add Resource
              </Button>
            }
          />
        }
      />
      <FilterLinks
        label="Filter by category"
        param="category"
        options={RESOURCE_CATEGORY_FILTERS}
        current={category ?? ""}
        testId="resource-category-filter"
      />
      <ResourceGrid resources={resources} />
    </div>
  );
}
