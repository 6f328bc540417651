import { Send } from "lucide-react";
import { InputField, TextareaField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { testEmailSchema } from "../../../server/newsletter/test-email-input.ts";

/** The Send Test Email card: a notification email with sample content, "[TEST]" in the subject. */
export function TestEmailCard() {
  const send = useIntentForm({ intent: "send-test-email", schema: testEmailSchema, id: "test-email" });
  const { fields, busy } = send;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Send Test Email</CardTitle>
        <CardDescription>Preview the notification email subscribers get when something is published.</CardDescription>
      </CardHeader>
      <CardContent>
        <IntentForm state={send} className="flex flex-col gap-5" data-testid="test-email-form">
          <InputField meta={fields.email} label="Recipient email" type="email" autoComplete="email" />
          <InputField meta={fields.post_title} label="Sample post title" placeholder="My new post" />
          <TextareaField meta={fields.post_summary} label="Sample post summary" rows={3} />
          <InputField
            meta={fields.post_url}
            label="Sample post URL"
            type="url"
            placeholder="https://example.com/blog/my-new-post"
          />
          <div>
            <SubmitButton busy={busy} pendingLabel="Sending..." icon={Send}>
              Send Test Email
            </SubmitButton>
          </div>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
