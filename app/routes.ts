import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  layout("routes/public/layout.tsx", [
    // Public screens
    index("routes/public/home.tsx"),
    route("projects", "routes/public/projects.tsx"),
    route("blog", "routes/public/tips.tsx"),
    route("resources", "routes/public/resources.tsx"),
    route("about", "routes/public/about.tsx"),
    route("auth", "routes/public/sign-in.tsx"),
    route("auth/reset-password", "routes/public/reset-password.tsx"),
    route("newsletter/confirm", "routes/public/newsletter-confirm.tsx"),
    route("newsletter/unsubscribe", "routes/public/newsletter-unsubscribe.tsx"),

    // Admin screens: inside the public shell until the admin shell and its access guard exist.
    ...prefix("admin", [
      index("routes/admin/dashboard.tsx"),
      route("home", "routes/admin/home.tsx"),
      route("newsletter", "routes/admin/newsletter.tsx"),
      route("tips", "routes/admin/tips.tsx"),
      route("resources", "routes/admin/resources.tsx"),
      route("projects", "routes/admin/projects.tsx"),
      route("about", "routes/admin/about.tsx"),
      route("settings", "routes/admin/settings.tsx"),
    ]),

    route("*", "routes/public/not-found.tsx"),
  ]),
] satisfies RouteConfig;
