import { BookOpen, ChevronRight, ImageUp, Library, type LucideIcon, Newspaper, Settings } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useAuth } from "~/lib/use-auth";
import { canOpen } from "../nav-items";

interface QuickAction {
  to: string;
  label: string;
  description: string;
  icon: LucideIcon;
}

/**
 * The spec's quick actions (create a post or chapter, add resources, configure settings,
 * upload media), each linking to the screen where it is done.
 */
export const QUICK_ACTIONS: readonly QuickAction[] = [
  { to: "/admin/tips", label: "Create a post", description: "Add a tip or trick.", icon: Newspaper },
  {
    to: "/admin/projects",
    label: "Create a chapter",
    description: "Start a new chapter of a project or course.",
    icon: BookOpen,
  },
  { to: "/admin/resources", label: "Add resources", description: "Grow the resource library.", icon: Library },
  {
    to: "/admin/settings",
    label: "Configure settings",
    description: "Set your LinkedIn and resume links.",
    icon: Settings,
  },
  {
    to: "/admin/media",
    label: "Upload media",
    description: "Add images to your chapters.",
    icon: ImageUp,
  },
];

export function GettingStarted() {
  const { isAdmin } = useAuth();
  const actions = QUICK_ACTIONS.filter((action) => canOpen(action.to, isAdmin));
  return (
    <Card data-testid="getting-started">
      <CardHeader>
        <CardTitle id="getting-started-title">Getting Started</CardTitle>
        <CardDescription>Quick actions to manage your site.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-labelledby="getting-started-title" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1">
          {actions.map(({ to, label, description, icon: Icon }) => (
            <li key={label}>
              <Link
                to={to}
                className="group flex items-center gap-3 rounded-md border border-line px-4 py-3 hover:border-accent hover:bg-surface"
              >
                <Icon aria-hidden="true" className="size-5 shrink-0 text-accent" />
                <span className="flex min-w-0 flex-col">
                  <span className="text-sm font-semibold text-fg">{label}</span>
                  <span className="text-sm text-fg-muted">{description}</span>
                </span>
                <ChevronRight
                  aria-hidden="true"
                  className="ml-auto size-4 shrink-0 text-fg-muted group-hover:text-accent"
                />
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
