/**
 * The response marked `private, no-store`: never stored by browsers or shared caches,
 * for pages that are personal (the admin area) or carry one-time tokens (sign-in,
 * invitations, password resets).
 */
export function privateResponse(response: Response): Response {
  try {
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch {
    // Headers of some responses (e.g. Response.redirect) are immutable: a copy is not.
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", "private, no-store");
    return copy;
  }
}
