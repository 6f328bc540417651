import { z } from "zod";

/**
 * The test email's payload (the spec's {email, post_title, post_summary, post_image,
 * post_url, post_type}): read by the service and the JSON API, and by the admin's form
 * in the browser, so this module holds nothing but the schema and its messages.
 */

export const TEST_EMAIL_REQUIRED_MESSAGE = "Please enter a test email address";
export const TEST_EMAIL_INVALID_MESSAGE = "Please enter a valid email address";

/** Optional text: absent, null or blank all mean "use the default". */
const optionalText = (max: number, label: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => value || undefined);

export const testEmailSchema = z.object({
  email: z
    .string({ message: TEST_EMAIL_REQUIRED_MESSAGE })
    .trim()
    .min(1, TEST_EMAIL_REQUIRED_MESSAGE)
    .max(254, TEST_EMAIL_INVALID_MESSAGE)
    .pipe(z.email({ message: TEST_EMAIL_INVALID_MESSAGE })),
  post_title: optionalText(300, "The post title"),
  post_summary: optionalText(5000, "The post summary"),
  post_image: optionalText(2000, "The image URL"),
  post_url: optionalText(2000, "The post URL"),
  post_type: optionalText(100, "The post type"),
});
