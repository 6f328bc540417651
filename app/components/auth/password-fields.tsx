import { TextField } from "~/components/ui/field";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../server/auth/password-length.ts";

export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters. A long phrase of unrelated words works well; common passwords are refused.`;

/** A new password, typed twice. The server checks the rules again (password-policy.ts). */
export function NewPasswordFields(props: { errors?: { password?: string; confirmPassword?: string }; label?: string }) {
  return (
    <>
      <TextField
        label={props.label ?? "New password"}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        maxLength={MAX_PASSWORD_LENGTH}
        required
        hint={PASSWORD_HINT}
        error={props.errors?.password}
      />
      <TextField
        label="Confirm password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        maxLength={MAX_PASSWORD_LENGTH}
        required
        error={props.errors?.confirmPassword}
      />
    </>
  );
}

/** The problem with a new password typed twice, field by field (server-side, before any call). */
export function newPasswordProblems(
  password: string,
  confirmPassword: string,
  problemOf: (password: string) => string | null,
): { password?: string; confirmPassword?: string } {
  if (!password) return { password: "Password is required." };
  const problem = problemOf(password);
  if (problem) return { password: problem };
  if (password !== confirmPassword) return { confirmPassword: "The passwords do not match." };
  return {};
}
