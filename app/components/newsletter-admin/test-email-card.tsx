import { Send } from "lucide-react";
import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { TEXTAREA_CLASSES } from "./settings-card";

export interface TestEmailFormState {
  email?: string;
  post_title?: string;
  post_summary?: string;
  post_url?: string;
  /** The recipient's error ("Please enter a test email address"). */
  error?: string;
}

/**
 * The Send Test Email card: a notification email with sample content, "[TEST]" in
 * the subject. The recipient is checked on the server (its message shows here), so
 * the form does not use the browser's own validation.
 */
export function TestEmailCard({ form = {}, formKey }: { form?: TestEmailFormState; formKey?: unknown }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send-test-email";
  const summaryId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Send Test Email</CardTitle>
        <CardDescription>Preview the notification email subscribers get when something is published.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          method="post"
          noValidate
          className="flex flex-col gap-5"
          data-testid="test-email-form"
          key={formKey === undefined ? undefined : String(formKey)}
        >
          <input type="hidden" name="intent" value="send-test-email" />
          <TextField
            label="Recipient email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={form.email}
            error={form.error}
            required
            maxLength={254}
          />
          <TextField
            label="Sample post title"
            name="post_title"
            defaultValue={form.post_title}
            maxLength={300}
            placeholder="My new post"
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={summaryId} className="text-sm font-medium text-fg">
              Sample post summary
            </label>
            <textarea
              id={summaryId}
              name="post_summary"
              defaultValue={form.post_summary}
              rows={3}
              maxLength={5000}
              className={TEXTAREA_CLASSES}
            />
          </div>
          <TextField
            label="Sample post URL"
            name="post_url"
            type="url"
            defaultValue={form.post_url}
            maxLength={2000}
            placeholder="https://example.com/blog/my-new-post"
          />
          <div>
            <Button type="submit" disabled={sending}>
              <Send aria-hidden="true" className="size-4" />
              {sending ? "Sending..." : "Send Test Email"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
