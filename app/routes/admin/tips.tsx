import { Plus } from "lucide-react";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import {
  addTipSchema,
  deleteTipSchema,
  editTipSchema,
  TIP_CATEGORY_FILTERS,
  TIP_INTENTS,
} from "~/components/tips-admin/schemas";
import { AddTipDialog } from "~/components/tips-admin/tip-dialogs";
import { TipsTable } from "~/components/tips-admin/tips-table";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FilterLinks } from "~/components/ui/filter-links";
import { PageHeader } from "~/components/ui/page-header";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { itemIntents } from "~/lib/item-intents.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { tipCategoryFilter } from "../../../server/content/tip-input.ts";
import { createTip, deleteTip, listTips, updateTip } from "../../../server/content/tips.ts";
import type { Route } from "./+types/tips";

/**
 * /admin/tips (editors and admins): the cards of the public Tips & Tricks page, listed
 * by category, added, edited and deleted. The spec calls them "resources" on this
 * screen, so the button and the toasts do too.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Tips & Tricks");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const category = tipCategoryFilter.parse(new URL(request.url).searchParams.get("category"));
  return { tips: await listTips(services.db, { category }), category };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const store = contentStoreFor(context);
  return runFormAction(
    await readForm(request),
    // The spec calls the tips of this screen "resources", so its toasts do too.
    itemIntents({
      thing: "resource",
      intents: TIP_INTENTS,
      schemas: { create: addTipSchema, update: editTipSchema, delete: deleteTipSchema },
      create: (tip) => createTip(store, tip),
      update: (id, changes) => updateTip(store, id, changes),
      remove: (id) => deleteTip(store, id),
    }),
    services.logger,
  );
}

export const clientAction = toastActionAnswer;

export default function AdminTipsPage({ loaderData }: Route.ComponentProps) {
  const { tips, category } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Tips & Tricks"
        description="The cards of the public Tips & Tricks page, in four categories."
        action={
          <AddTipDialog
            category={category}
            trigger={
              <Button data-testid="add-tip">
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
        options={TIP_CATEGORY_FILTERS}
        current={category ?? ""}
        testId="tip-category-filter"
      />
      {/* On phones the rows are cards already: no frame around them. */}
      <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
        <CardContent className="pt-5 max-sm:p-0">
          <TipsTable tips={tips} />
        </CardContent>
      </Card>
    </div>
  );
}
