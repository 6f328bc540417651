import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { type RenderToPipeableStreamOptions, renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  type ServerInstrumentation,
  ServerRouter,
} from "react-router";
import { coalescedStream } from "../server/http/coalesced-stream.ts";
import type { AppServices } from "../server/services.ts";
import { NonceProvider } from "./components/nonce";
import { RequestThemeProvider } from "./components/theme/page-theme";
import { themeFromCookieHeader } from "./components/theme/theme";
import { type RequestValues, requestContext, servicesContext } from "./context";

export const streamTimeout = 5_000;

/**
 * Hands the route pattern React Router matched ("/projects/:slug") to the Express layer,
 * through the request's values, as the request's label in the metrics (server/metrics/):
 * a pattern keeps the label set bounded where the raw path would not.
 */
export const instrumentations: ServerInstrumentation[] = [
  {
    handler(handler) {
      handler.instrument({
        async request(handle, { context }) {
          const result = await handle();
          if (result.meta && context) requestValuesOf(context).routePattern = result.meta.pattern;
        },
      });
    },
  },
];

/** The request's values; empty when the request did not come through the Express layer. */
function requestValuesOf(context: Pick<RouterContextProvider, "get">): Partial<RequestValues> {
  try {
    return context.get(requestContext);
  } catch {
    return {};
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Response | Promise<Response> {
  // Read before rendering: a response whose scripts lack the CSP header's nonce would be broken.
  const { cspNonce: nonce } = loadContext.get(requestContext);
  const userAgent = request.headers.get("user-agent");
  // Crawlers and SPA-mode renders need the complete document, not a streamed shell.
  const readyOption: keyof RenderToPipeableStreamOptions =
    (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Abort a little after streamTimeout so rejected boundaries still have time to flush.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider nonce={nonce}>
        <RequestThemeProvider theme={themeFromCookieHeader(request.headers.get("cookie"))}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </RequestThemeProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // React's many small chunks, joined per turn (server/http/coalesced-stream.ts).
          const body = coalescedStream({
            final(callback) {
              // Clearing the timer releases this closure as soon as the stream ends.
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready reject above and reach handleError through
          // React Router; only those streamed later would otherwise go unlogged.
          if (shellRendered) logUnhandledError(error, request, loadContext);
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who navigated away is not an error worth logging.
  if (request.signal.aborted) return;
  // A client's mistake (405 for a POST to a page without an action, say) is not ours.
  if (isRouteErrorResponse(error) && error.status < 500) {
    const path = new URL(request.url).pathname;
    servicesOf(context)?.logger.warn(
      { reqId: requestIdOf(context), status: error.status, path },
      error.statusText || "Client error",
    );
    return;
  }
  logUnhandledError(error, request, context);
};

function logUnhandledError(error: unknown, request: Request, context: Readonly<RouterContextProvider>): void {
  const path = new URL(request.url).pathname;
  const logger = servicesOf(context)?.logger;
  if (logger) logger.error({ reqId: requestIdOf(context), err: error, path }, "Unhandled error");
  else console.error("Unhandled error", path, error);
}

/** The request's id (X-Request-Id), so that an error's line can be found with the request's. */
function requestIdOf(context: Readonly<RouterContextProvider>): string | undefined {
  return requestValuesOf(context).requestId;
}

/** Undefined when the request failed before the Express layer provided the services. */
function servicesOf(context: Readonly<RouterContextProvider>): AppServices | undefined {
  try {
    return context.get(servicesContext);
  } catch {
    return undefined;
  }
}
