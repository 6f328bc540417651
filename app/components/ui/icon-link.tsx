import type { LucideIcon } from "lucide-react";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";
import { buttonVariants } from "./button";
import { Tooltip } from "./tooltip";

export interface IconLinkProps extends Omit<ComponentPropsWithoutRef<"a">, "children" | "target" | "rel"> {
  icon: LucideIcon;
  /** The link's accessible name, also shown as its tooltip ("Open OWASP"). */
  label: string;
  href: string;
}

/**
 * IconButton's look for a link to another page, which opens in a new tab without
 * handing that page a reference to this one (noopener) or the admin's address
 * (noreferrer).
 */
export function IconLink({ icon: Icon, label, href, className, ...props }: IconLinkProps) {
  return (
    <Tooltip label={label}>
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`${label} (opens in a new tab)`}
        className={cn(buttonVariants({ variant: "ghost", size: "icon" }), className)}
        {...props}
      >
        <Icon aria-hidden="true" className="size-4" />
      </a>
    </Tooltip>
  );
}
