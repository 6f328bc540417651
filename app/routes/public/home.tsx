import { PageTitle } from "~/components/site/page-title";
import { SITE_DESCRIPTION, SITE_NAME } from "~/lib/meta";

export default function HomePage() {
  return (
    <>
      <PageTitle>{SITE_NAME}</PageTitle>
      <p className="mt-4 max-w-2xl text-lg text-fg-muted">{SITE_DESCRIPTION}</p>
    </>
  );
}
