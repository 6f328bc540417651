import { Lightbulb, Pencil } from "lucide-react";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { EmptyState } from "~/components/ui/empty-state";
import { IconButton } from "~/components/ui/icon-button";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { TipRecord } from "../../../server/content/tips.ts";
import { TIP_INTENTS } from "./schemas";
import { EditTipDialog } from "./tip-dialogs";
import { TipTypeBadge } from "./tip-type-badge";

/** The tips as the spec's table (Title, Category, Type, Order, Actions), or its empty state. */
export function TipsTable({ tips }: { tips: TipRecord[] }) {
  if (tips.length === 0) return <EmptyState icon={Lightbulb}>No resources found.</EmptyState>;
  return (
    <Table data-testid="tips-table">
      <caption className="sr-only">Tips & Tricks</caption>
      <TableHead columns={["Title", "Category", "Type", "Order", "Actions"]} />
      <TableBody>
        {tips.map((tip) => (
          <TipRow key={tip.id} tip={tip} />
        ))}
      </TableBody>
    </Table>
  );
}

function TipRow({ tip }: { tip: TipRecord }) {
  return (
    <TableRow data-testid="tip-row">
      <TableCell label="Title">
        <span className="block font-medium text-fg">{tip.title}</span>
        {tip.url && <span className="block font-mono text-xs break-all text-fg-muted">{tip.url}</span>}
      </TableCell>
      <TableCell label="Category" className="whitespace-nowrap text-fg-muted">
        {tip.category}
      </TableCell>
      <TableCell label="Type">
        <TipTypeBadge type={tip.type} />
      </TableCell>
      <TableCell label="Order" className="text-fg-muted tabular-nums">
        {tip.orderIndex}
      </TableCell>
      <TableActions>
        {/* One group, so that the two buttons stay side by side in a narrow column. */}
        <div className="flex gap-1">
          <EditTipDialog tip={tip} trigger={<IconButton icon={Pencil} label={`Edit ${tip.title}`} />} />
          <DeleteItemButton
            name={tip.title}
            description="The card is removed from the public Tips & Tricks page. This action cannot be undone."
            intent={TIP_INTENTS.delete}
            fields={{ id: tip.id }}
          />
        </div>
      </TableActions>
    </TableRow>
  );
}
