import { InputField, type InputFieldProps } from "~/components/forms/fields";

/**
 * "Confirm with the password": the field every sensitive change of the account page
 * asks for (two-factor, backup codes, the phone), with the account's email beside it,
 * hidden, so that password managers know which password to fill in.
 */
export function ConfirmPasswordField({
  email,
  meta,
  className,
  autoFocus,
}: {
  email: string;
  meta: InputFieldProps["meta"];
  className?: string;
  /** In a dialog asking for nothing else: typing goes straight into the field. */
  autoFocus?: boolean;
}) {
  return (
    <>
      <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
      <InputField
        type="password"
        meta={meta}
        label="Confirm your password"
        autoComplete="current-password"
        className={className}
        autoFocus={autoFocus}
      />
    </>
  );
}
