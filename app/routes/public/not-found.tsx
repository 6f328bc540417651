import { data } from "react-router";
import { NotFoundMessage } from "~/components/errors/error-message";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/not-found";

/**
 * The catch-all route. The page is returned (not thrown) with status 404, so it renders
 * as an ordinary page inside the public shell; the missing path is logged for broken links.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  context.get(servicesContext).logger.warn({ path: url.pathname }, "Page not found");
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Page not found") },
  { name: "robots", content: "noindex" },
];

export default function NotFoundPage() {
  return <NotFoundMessage />;
}
