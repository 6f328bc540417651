import { Download } from "lucide-react";
import { InputField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { importImageSchema, MEDIA_INTENTS } from "./schemas";

/** An image address from another site, fetched once by the server into the library (the page's import intent). */
export function ImportUrlForm() {
  const state = useIntentForm({ intent: MEDIA_INTENTS.importImage, schema: importImageSchema });
  return (
    <IntentForm state={state} aria-label="Import an image by URL" className="flex flex-col items-start gap-3">
      <InputField
        meta={state.fields.url}
        label="Image URL"
        type="url"
        placeholder="https://"
        className="w-full"
        hint="The server downloads the image once into the library: pages never load it from the other site."
      />
      <SubmitButton busy={state.busy} pendingLabel="Importing..." icon={Download} variant="secondary">
        Import
      </SubmitButton>
    </IntentForm>
  );
}
