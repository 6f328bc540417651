import { z } from "zod";

/**
 * What a service hands the outbox, checked before it is stored: the worker sends
 * rows as they are, so a header line break (header injection) or a bad address
 * must be refused here, where the caller still gets the error.
 */

/** Headers the mailer sets itself; a row may not override them. */
const RESERVED_HEADERS = new Set([
  "from",
  "sender",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "return-path",
]);

const headersSchema = z.record(z.string(), z.string()).superRefine((headers, context) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(name)) {
      context.addIssue({ code: "custom", message: `Invalid header name: ${JSON.stringify(name)}` });
    } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
      context.addIssue({ code: "custom", message: `The ${name} header is set by the mailer` });
    }
    if (/[\r\n]/.test(value)) context.addIssue({ code: "custom", message: `The ${name} header must be a single line` });
  }
});

const recipient = z.email({ message: "The recipient must be an email address" });

/** Whether the outbox takes this address as a recipient. */
export const isRecipientAddress = (address: string): boolean => recipient.safeParse(address).success;

const newEmailSchema = z.object({
  idempotencyKey: z.string().min(1).max(500),
  kind: z.string().min(1).max(100),
  batchId: z.string().min(1).max(200).optional(),
  to: recipient,
  subject: z
    .string()
    .trim()
    .min(1, "The subject must not be empty")
    .max(998)
    .refine((value) => !/[\r\n]/.test(value), "The subject must be a single line"),
  html: z.string().min(1),
  text: z.string().min(1),
  headers: headersSchema.default({}),
});

export type NewEmail = z.input<typeof newEmailSchema>;
export type ValidEmail = z.output<typeof newEmailSchema>;

export class InvalidEmailError extends Error {
  override name = "InvalidEmailError";
}

export function parseNewEmail(email: NewEmail): ValidEmail {
  const result = newEmailSchema.safeParse(email);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new InvalidEmailError(`Invalid email for the outbox: ${field}${issue?.message ?? "invalid"}`);
  }
  return result.data;
}
