import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/** The one card of an auth page: its h1, a line of explanation, the form, links below. */
export function AuthCard(props: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">
          {props.title}
        </CardTitle>
        {props.description && <CardDescription>{props.description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {props.children}
        {props.footer && <div className="border-t border-line pt-4 text-sm text-fg-muted">{props.footer}</div>}
      </CardContent>
    </Card>
  );
}

export const LINK_CLASSES = "font-medium text-accent underline-offset-4 hover:underline";
