import type { FormIntent } from "~/lib/form-action.server";
import { formIntent } from "~/lib/form-action.server";
import { updateHomeContent } from "../../../server/content/home.ts";
import type { ContentStore } from "../../../server/content/store.ts";
import { AppError, Conflict, Invalid } from "../../../server/errors.ts";
import { homePageFormSchema, SAVE_HOME_PAGE_INTENT } from "./schemas";

/** The Home Page Editor's intent: every entry in one all-or-nothing save. */
export function homePageIntents(store: ContentStore): Record<string, FormIntent> {
  return {
    [SAVE_HOME_PAGE_INTENT]: formIntent({
      schema: homePageFormSchema,
      failure: "Failed to update home page",
      resetOnSuccess: false,
      async run(value) {
        try {
          await updateHomeContent(store, value);
        } catch (error) {
          throw someUpdatesFailed(error);
        }
        return "Home page updated successfully!";
      },
    }),
  };
}

/**
 * An entry refused (changed by someone else, or invalid) refuses the whole save: the
 * message says some updates failed and that none was kept, then why.
 */
function someUpdatesFailed(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const message = `Some updates failed, so nothing was saved. ${error.message}`;
  if (error instanceof Invalid) return new Invalid({ ...error.fields }, message);
  if (error instanceof Conflict) return new Conflict(message);
  return error;
}
