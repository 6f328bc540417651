import type { LucideIcon } from "lucide-react";
import { Button, type ButtonProps } from "./button";
import { Tooltip } from "./tooltip";

export interface IconButtonProps extends Omit<ButtonProps, "children" | "size" | "asChild"> {
  icon: LucideIcon;
  /** The button's accessible name, also shown as its tooltip: say what and on which item ("Edit Introduction"). */
  label: string;
}

/** A square button with one icon, named for assistive technology and labelled by a tooltip for everyone else. */
export function IconButton({ icon: Icon, label, variant = "ghost", ...props }: IconButtonProps) {
  return (
    <Tooltip label={label}>
      <Button variant={variant} size="icon" aria-label={label} {...props}>
        <Icon aria-hidden="true" className="size-4" />
      </Button>
    </Tooltip>
  );
}
