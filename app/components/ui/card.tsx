import type { ComponentPropsWithoutRef, ElementType, ReactNode } from "react";

/** A raised panel. Sections of a card: CardHeader (CardTitle, CardDescription) and CardContent. */
export function Card({ className = "", ...props }: ComponentPropsWithoutRef<"div">) {
  return <div className={`rounded-lg border border-line bg-surface-raised shadow-sm ${className}`} {...props} />;
}

export function CardHeader({ className = "", ...props }: ComponentPropsWithoutRef<"div">) {
  return <div className={`flex flex-col gap-1.5 p-5 pb-3 ${className}`} {...props} />;
}

export interface CardTitleProps {
  /** The heading level that fits the page's outline; h2 by default. */
  as?: ElementType;
  id?: string;
  className?: string;
  children: ReactNode;
}

export function CardTitle({ as: Heading = "h2", className = "", ...props }: CardTitleProps) {
  return <Heading className={`text-lg font-semibold tracking-tight text-fg ${className}`} {...props} />;
}

export function CardDescription({ className = "", ...props }: ComponentPropsWithoutRef<"p">) {
  return <p className={`text-sm text-fg-muted ${className}`} {...props} />;
}

export function CardContent({ className = "", ...props }: ComponentPropsWithoutRef<"div">) {
  return <div className={`p-5 pt-2 ${className}`} {...props} />;
}
