/**
 * A route's `headers` export for the auth forms: React Router puts the cookies an
 * action sets on the page by itself, but other headers only through this; a rate
 * limited attempt answers 429 with Retry-After.
 */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}
