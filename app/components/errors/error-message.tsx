import { House } from "lucide-react";
import { Link } from "react-router";
import { isNotFound, isRefusedRequest } from "~/lib/errors";

/**
 * What a visitor sees when a route fails. It never shows the error itself: messages
 * and stacks may reveal internals, and they are in the server log already.
 */
export function RouteErrorMessage({ error }: { error: unknown }) {
  if (isNotFound(error)) return <NotFoundMessage />;
  if (isRefusedRequest(error)) {
    return <RefusedRequestMessage status={error.status} data={error.data} />;
  }
  return <ServerErrorMessage />;
}

/** A request the server refused (415 for a body that is not a form, say), with the reason it gave. */
function RefusedRequestMessage({ status, data }: { status: number; data: unknown }) {
  const reason =
    data && typeof data === "object" && "message" in data && typeof data.message === "string"
      ? data.message
      : "Please go back and try again.";
  return <ErrorMessage code={String(status)} title="This request could not be handled" text={reason} />;
}

export function NotFoundMessage() {
  return (
    <ErrorMessage
      code="404"
      title="Oops! Page not found"
      text="The page you are looking for does not exist or has moved."
    />
  );
}

export function ServerErrorMessage() {
  return (
    <ErrorMessage
      code="500"
      title="Something went wrong"
      text="An unexpected error occurred. Please try again later."
    />
  );
}

function ErrorMessage({ code, title, text }: { code: string; title: string; text: string }) {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <p className="font-mono text-sm font-semibold text-accent">{code}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-fg sm:text-4xl">{title}</h1>
      <p className="mt-4 text-fg-muted">{text}</p>
      <Link
        to="/"
        className="mt-8 inline-flex items-center gap-2 rounded-md bg-accent px-4 py-2 font-semibold text-on-accent hover:bg-accent-strong"
      >
        <House aria-hidden="true" className="size-4" />
        Return to Home
      </Link>
    </div>
  );
}
