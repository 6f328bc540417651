import { z } from "zod";
import { ROLES } from "../../../../server/db/schema.ts";

/** The forms of /admin/users, read by the browser and again by the action. */

export const ROLE_LABELS = { admin: "Administrator", editor: "Editor" } as const;

export const ROLE_OPTIONS = [
  { value: "editor", label: ROLE_LABELS.editor },
  { value: "admin", label: ROLE_LABELS.admin },
];

const role = z.enum(ROLES, { message: "Choose a role." });
const id = z.string({ message: "The form was not understood." }).max(200);

export const inviteSchema = z.object({
  email: z
    .string({ message: "Please enter an email address." })
    .trim()
    .max(254, "Please enter a valid email address.")
    .pipe(z.email({ message: "Please enter a valid email address." })),
  role,
});

export const setRoleSchema = z.object({ userId: id, role });
export const deleteUserSchema = z.object({ userId: id });
export const revokeInvitationSchema = z.object({ invitationId: id });
