import { z } from "zod";
import { homeContentEntries } from "../../../server/content/home-input.ts";

/** The Home Page Editor's form, read by the browser and again by the action; the field rules are the service's. */

export const SAVE_HOME_PAGE_INTENT = "save-home-page";

/** Every entry is saved together, each with the revision the form was opened at. */
export const homePageFormSchema = z.object({
  ...homeContentEntries,
  // A switch: "on" when on, nothing when off; stored as the text "true" or "false".
  newsletter_section_visible: homeContentEntries.newsletter_section_visible.extend({
    value: z
      .boolean()
      .default(false)
      .transform((visible) => (visible ? "true" : "false")),
  }),
});
