import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Resource routes (no UI).
  route(".well-known/jwks.json", "routes/api/jwks.ts"),
  route("api/me", "routes/api/me.ts"),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
  route("feed.xml", "routes/api/feed.ts"),
  // Admin-only CSV download: a resource route, so it answers 401/403 itself (requireApiRole).
  route("api/admin/newsletter/export.csv", "routes/admin/newsletter.csv.ts"),
  // Admin only (the spec's newsletter-send-test-email call): requireApiRole in the route.
  route("api/newsletter/test-email", "routes/api/newsletter-test-email.ts"),
  route("api/newsletter/subscribe", "routes/api/newsletter-subscribe.ts"),
  route("api/newsletter/confirm", "routes/api/newsletter-confirm.ts"),
  route("api/newsletter/unsubscribe", "routes/api/newsletter-unsubscribe.ts"),
  route("api/newsletter/webhooks/bounce", "routes/api/newsletter-bounce-webhook.ts"),
  // Editors and admins, by session or API token: requireApiCaller in the routes.
  route("api/media", "routes/api/media.ts"),
  route("api/media/import", "routes/api/media-import.ts"),
  // Any other /api path: a JSON 404, not the public site's page.
  route("api/*", "routes/api/not-found.ts"),

  // Sign-in and account creation: their own minimal layout, outside the admin guard.
  layout("routes/auth/layout.tsx", [
    route("auth", "routes/auth/sign-in.tsx"),
    route("auth/forgot-password", "routes/auth/forgot-password.tsx"),
    route("auth/reset-password", "routes/auth/reset-password.tsx"),
    route("auth/two-factor", "routes/auth/two-factor.tsx"),
    route("auth/invite", "routes/auth/invite.tsx"),
    route("auth/setup", "routes/auth/setup.tsx"),
    route("auth/sign-out", "routes/auth/sign-out.tsx"),
  ]),

  // The admin area: every route below runs behind the guard of the admin layout.
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("home", "routes/admin/home.tsx"),
      route("newsletter", "routes/admin/newsletter.tsx"),
      route("tips", "routes/admin/tips.tsx"),
      route("resources", "routes/admin/resources.tsx"),
      route("projects", "routes/admin/projects.tsx"),
      route("media", "routes/admin/media.tsx"),
      route("about", "routes/admin/about.tsx"),
      route("settings", "routes/admin/settings.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("account", "routes/admin/account.tsx"),
    ]),
  ]),

  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("projects", "routes/public/projects.tsx"),
    route("projects/:slug", "routes/public/chapter.tsx"),
    route("blog", "routes/public/tips.tsx"),
    route("resources", "routes/public/resources.tsx"),
    route("about", "routes/public/about.tsx"),
    route("newsletter/confirm", "routes/public/newsletter-confirm.tsx"),
    route("newsletter/unsubscribe", "routes/public/newsletter-unsubscribe.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),
] satisfies RouteConfig;
