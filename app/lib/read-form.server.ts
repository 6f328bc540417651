import { data } from "react-router";
import { isFormBody } from "../../server/validation.ts";

/**
 * The body of a form post. Pages' actions take forms only: a JSON, text or malformed
 * body is the sender's mistake, answered 415 or 400 with a message on the error page,
 * never a server error.
 */

export const FORM_BODY_REQUIRED =
  "This page takes a form: send application/x-www-form-urlencoded or multipart/form-data.";
export const FORM_BODY_UNREADABLE = "The form could not be read. Please reload the page and try again.";

export async function readForm(request: Request): Promise<FormData> {
  if (!isFormBody(request)) throw data({ message: FORM_BODY_REQUIRED }, { status: 415 });
  try {
    return await request.formData();
  } catch {
    throw data({ message: FORM_BODY_UNREADABLE }, { status: 400 });
  }
}
