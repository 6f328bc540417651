import { Braces } from "lucide-react";
import { useId } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CopyButton } from "./copy-button";
import { type ActionResult, DateTime, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

/**
 * A short-lived JWT for API clients (Better Auth's jwt plugin), shown once. Clients send
 * it as `Authorization: Bearer …`; the public keys are at /.well-known/jwks.json.
 */
export function ApiTokenCard({ result }: { result: ActionResult }) {
  const own = resultFor(result, "api-token");
  const pending = usePending("api-token");
  const tokenId = useId();
  const token = own?.ok ? own.apiToken : undefined;
  return (
    <section aria-labelledby="api-token-title" data-testid="api-tokens">
      <Card>
        <CardHeader>
          <CardTitle id="api-token-title" className="flex items-center gap-2">
            <Braces aria-hidden="true" className="size-5 text-accent" />
            API tokens
          </CardTitle>
          <CardDescription>
            A token lets a script or API client act as you for 15 minutes. Send it as{" "}
            <code className="font-mono text-fg">Authorization: Bearer &lt;token&gt;</code>, for example to{" "}
            <code className="font-mono text-fg">GET /api/me</code>. Its signature can be checked with the public keys at{" "}
            <a href="/.well-known/jwks.json" className="text-accent underline underline-offset-4">
              /.well-known/jwks.json
            </a>
            .
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <ResultMessage result={own} testId="api-token-result" />
          {token && (
            <div className="flex flex-col gap-2" data-testid="api-token">
              <label htmlFor={tokenId} className="text-sm font-medium text-fg">
                Your API token
              </label>
              <textarea
                id={tokenId}
                readOnly
                rows={4}
                value={token.token}
                data-testid="api-token-value"
                className="w-full rounded-md border border-line bg-surface p-2 font-mono text-xs break-all text-fg"
              />
              <p className="text-sm text-fg-muted">
                Expires <DateTime iso={token.expiresAt} />. It is shown only once.
              </p>
              <div>
                <CopyButton value={token.token} label="Copy token" />
              </div>
            </div>
          )}
          <IntentForm intent="api-token" aria-label="Create API token">
            <Button type="submit" variant="secondary" disabled={pending} data-testid="create-api-token">
              {pending ? "Creating…" : "Create API token"}
            </Button>
          </IntentForm>
        </CardContent>
      </Card>
    </section>
  );
}
