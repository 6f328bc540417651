import { data, redirect } from "react-router";
import { readForm } from "~/lib/read-form.server";
import { ACCEPT_INVITATION_PATH, OWNER_SETUP_PATH } from "../../../server/auth/account-endpoints.ts";
import { callAuth, rateLimitMessage } from "../../../server/auth/handler-calls.ts";
import { couldBeLinkToken, INVALID_LINK_MESSAGE } from "../../../server/auth/invitations.ts";
import { passwordProblem } from "../../../server/auth/password-policy.ts";
import { emailProblem, userNameProblem } from "../../../server/auth/users.ts";
import type { AppServices } from "../../../server/services.ts";
import { type FormResult, formPassword, formText } from "./form-result";
import { signInPath } from "./notices";
import { newPasswordProblems } from "./password-fields";

/**
 * The action shared by /auth/invite and /auth/setup (server only): checks the form,
 * creates the account through Better Auth's handler (so its rate limit counts the
 * attempts), then sends the visitor to the sign-in page with "Success!".
 */

export type AccountField = "name" | "email" | "password" | "confirmPassword";
export type AccountLinkResult = FormResult<AccountField> & { invalidLink?: boolean };

const ERROR_TITLE = "Error signing up";

/** A refusal the form's own checks should have caught first (see createAccountFromLink). */
export const FORM_NOT_ACCEPTED_MESSAGE =
  "Some of what you entered could not be accepted. Please check the form and try again.";

function refused(description: string, status: number, extra: Partial<AccountLinkResult> = {}, headers?: HeadersInit) {
  return data<AccountLinkResult>(
    { message: { tone: "error", title: ERROR_TITLE, description }, ...extra },
    { status, headers },
  );
}

export async function createAccountFromLink(
  services: AppServices,
  request: Request,
  kind: "invitation" | "owner-setup",
) {
  const form = await readForm(request);
  const token = formText(form, "token");
  const name = formText(form, "name");
  const email = formText(form, "email");
  const password = formPassword(form, "password");
  const values = kind === "owner-setup" ? { name, email } : { name };

  // Every field is checked here by the services' own rules: the endpoint's schema refuses
  // over-long values before the services run, with no message fit for a field.
  const fieldErrors: AccountLinkResult["fieldErrors"] = {};
  const nameProblem = userNameProblem(name);
  if (nameProblem) fieldErrors.name = nameProblem;
  if (kind === "owner-setup") {
    const problem = email ? emailProblem(email) : "Email is required.";
    if (problem) fieldErrors.email = problem;
  }
  Object.assign(fieldErrors, newPasswordProblems(password, formPassword(form, "confirmPassword"), passwordProblem));
  const firstProblem = fieldErrors.name ?? fieldErrors.email ?? fieldErrors.password ?? fieldErrors.confirmPassword;
  if (firstProblem) return refused(firstProblem, 400, { fieldErrors, values });
  // After the fields, as the endpoint orders it: a forged token gets the answer of any link that does not work.
  if (!couldBeLinkToken(token)) return refused(INVALID_LINK_MESSAGE, 400, { invalidLink: true });

  const result =
    kind === "invitation"
      ? await callAuth(services, request, ACCEPT_INVITATION_PATH, { token, name, password })
      : await callAuth(services, request, OWNER_SETUP_PATH, { token, name, email, password });
  if (result.ok) throw redirect(signInPath({ notice: "account-created" }));

  if (result.status === 429) {
    const retry = result.retryAfterSeconds;
    return refused(rateLimitMessage(result), 429, { values }, retry ? { "Retry-After": String(retry) } : undefined);
  }
  const description = result.body.message || "Something went wrong. Please try again later.";
  switch (result.body.code) {
    case "NOT_FOUND":
      return refused(INVALID_LINK_MESSAGE, 400, { invalidLink: true });
    case "INVALID":
      return refused(description, 400, { fieldErrors: shownFieldErrors(result.body.fields, kind), values });
    case "VALIDATION_ERROR":
      // The endpoint's schema refused what the checks above let through: the sender's
      // input, not a server fault; logged so that the checks can be brought in line.
      services.logger.warn({ body: result.body, kind }, "The account endpoint refused a form the action had accepted");
      return refused(FORM_NOT_ACCEPTED_MESSAGE, 400, { values });
    default:
      services.logger.error({ status: result.status, body: result.body, kind }, "Account creation failed unexpectedly");
      return refused("Something went wrong. Please try again later.", 500, { values });
  }
}

/** The messages of the fields this form shows (the invitation's email is not one of them: it is fixed). */
function shownFieldErrors(fields: unknown, kind: "invitation" | "owner-setup"): AccountLinkResult["fieldErrors"] {
  const messages = (fields ?? {}) as Partial<Record<string, string>>;
  return {
    name: messages.name,
    password: messages.password,
    email: kind === "owner-setup" ? messages.email : undefined,
  };
}
