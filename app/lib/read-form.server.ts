import { data } from "react-router";
import { holdsNulCharacter, isFormBody, NUL_CHARACTER_MESSAGE } from "../../server/validation.ts";

/**
 * The body of a form post. Pages' actions take forms only: a JSON, text or malformed
 * body is the sender's mistake, answered 415 or 400 with a message on the error page,
 * never a server error. So is a form holding a NUL character, which no field takes
 * (server/validation.ts).
 */

export const FORM_BODY_REQUIRED =
  "This page takes a form: send application/x-www-form-urlencoded or multipart/form-data.";
export const FORM_BODY_UNREADABLE = "The form could not be read. Please reload the page and try again.";

export async function readForm(request: Request): Promise<FormData> {
  if (!isFormBody(request)) throw data({ message: FORM_BODY_REQUIRED }, { status: 415 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data({ message: FORM_BODY_UNREADABLE }, { status: 400 });
  }
  if (holdsNulCharacter(form)) throw data({ message: NUL_CHARACTER_MESSAGE }, { status: 400 });
  return form;
}
