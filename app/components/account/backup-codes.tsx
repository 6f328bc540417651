import { Download } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";
import { CopyButton } from "./copy-button";

/**
 * One-time backup codes, shown once right after they were made. Each works once at
 * sign-in in place of an authenticator code. Downloadable without JavaScript.
 */
export function BackupCodes({ codes }: { codes: string[] }) {
  const text = `Bastion backup codes (each works once)\n\n${codes.join("\n")}\n`;
  return (
    <div className="flex flex-col gap-3 rounded-md border border-warning/60 p-4" data-testid="backup-codes">
      <h3 className="font-semibold text-fg">Your backup codes</h3>
      <p className="text-sm text-fg-muted">
        Keep them somewhere safe, such as a password manager. Each code works once, if you lose your authenticator app.{" "}
        <strong className="text-warning">They will not be shown again.</strong>
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-fg sm:grid-cols-3" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code} data-testid="backup-code" className="rounded border border-line px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="bastion-backup-codes.txt"
          className={buttonVariants({ variant: "secondary", size: "sm" })}
        >
          <Download aria-hidden="true" className="size-4" />
          Download
        </a>
        <CopyButton value={codes.join("\n")} label="Copy codes" />
      </div>
    </div>
  );
}
