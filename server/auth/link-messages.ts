/**
 * Texts of the invitation and owner-setup links shared by the server and the pages
 * (a module without dependencies, so that pages can import it without pulling server
 * code into the browser's bundle).
 */
export const INVALID_LINK_MESSAGE = "This link is invalid, has expired or has already been used.";
