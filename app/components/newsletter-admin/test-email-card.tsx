import { getFormProps } from "@conform-to/react";
import { Send } from "lucide-react";
import { FormErrors, InputField, TextareaField } from "~/components/forms/fields";
import { useActionFetcher } from "~/components/forms/use-action-fetcher";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useSchemaForm } from "~/lib/forms";
import { testEmailSchema } from "../../../server/newsletter/test-email-input.ts";

/** The Send Test Email card: a notification email with sample content, "[TEST]" in the subject. */
export function TestEmailCard() {
  const { fetcher, lastResult, busy } = useActionFetcher("send-test-email");
  const [form, fields] = useSchemaForm({ schema: testEmailSchema, id: "test-email", lastResult });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Send Test Email</CardTitle>
        <CardDescription>Preview the notification email subscribers get when something is published.</CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          {...getFormProps(form)}
          className="flex flex-col gap-5"
          data-testid="test-email-form"
        >
          <input type="hidden" name="intent" value="send-test-email" />
          <FormErrors errors={form.errors} id={form.errorId} />
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
            <Button type="submit" disabled={busy}>
              <Send aria-hidden="true" className="size-4" />
              {busy ? "Sending..." : "Send Test Email"}
            </Button>
          </div>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
