import {
  BookOpen,
  CircleUser,
  House,
  Images,
  LayoutDashboard,
  Library,
  Lightbulb,
  type LucideIcon,
  Mail,
  Settings,
  UserRound,
  Users,
} from "lucide-react";
import { requiredRoleForPath } from "../../../server/auth/access.ts";

export interface AdminNavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Active on this exact path only; the others are active on their whole subtree. */
  end?: boolean;
}

/** The admin sidebar, in the spec's order, then the account screens. */
export const ADMIN_NAV_ITEMS: readonly AdminNavItem[] = [
  { to: "/admin", label: "Dashboard", icon: LayoutDashboard, end: true },
  { to: "/admin/home", label: "Home", icon: House },
  { to: "/admin/newsletter", label: "Newsletter", icon: Mail },
  { to: "/admin/projects", label: "Projects & Courses", icon: BookOpen },
  { to: "/admin/media", label: "Media", icon: Images },
  { to: "/admin/tips", label: "Tips & Tricks", icon: Lightbulb },
  { to: "/admin/resources", label: "Resources", icon: Library },
  { to: "/admin/about", label: "About", icon: UserRound },
  { to: "/admin/settings", label: "Site Settings", icon: Settings },
  { to: "/admin/users", label: "Users", icon: Users },
  { to: "/admin/account", label: "Account", icon: CircleUser },
];

/** Whether the viewer may open the path: the same table the server guard uses. */
export function canOpen(path: string, isAdmin: boolean): boolean {
  return isAdmin || requiredRoleForPath(path) === "editor";
}

/** The items to show: editors do not see admin-only screens (the server refuses them anyway). */
export function visibleNavItems(isAdmin: boolean): AdminNavItem[] {
  return ADMIN_NAV_ITEMS.filter((item) => canOpen(item.to, isAdmin));
}
