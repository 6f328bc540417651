export interface NavItem {
  to: string;
  label: string;
  /** Match the path exactly; "/" would otherwise be active on every page. */
  end?: boolean;
}

export const PRIMARY_NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Home", end: true },
  { to: "/projects", label: "Projects" },
  { to: "/blog", label: "Tips & Tricks" },
  { to: "/resources", label: "Resources" },
  { to: "/about", label: "About" },
];

/** The footer names the projects page by its full title. */
export const FOOTER_QUICK_LINKS: readonly NavItem[] = [
  { to: "/projects", label: "Projects & Courses" },
  { to: "/blog", label: "Tips & Tricks" },
  { to: "/resources", label: "Resources" },
  { to: "/about", label: "About" },
];
