import { Braces } from "lucide-react";
import { useId, useState } from "react";
import { IntentButton } from "~/components/forms/intent-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label, Textarea } from "~/components/ui/field";
import type { ApiToken } from "../../../server/auth/account-changes.ts";
import { CopyButton } from "./copy-button";
import { DateTime, detailsOf } from "./shared";

/**
 * A short-lived JWT for API clients (Better Auth's jwt plugin), shown once. Clients send
 * it as `Authorization: Bearer …`; the public keys are at /.well-known/jwks.json.
 */
export function ApiTokenCard() {
  const [token, setToken] = useState<ApiToken>();
  const tokenId = useId();
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
          {token && (
            <div className="flex flex-col gap-2" data-testid="api-token">
              <Label htmlFor={tokenId}>Your API token</Label>
              <Textarea
                id={tokenId}
                readOnly
                rows={4}
                value={token.token}
                data-testid="api-token-value"
                className="font-mono text-xs break-all"
              />
              <p className="text-sm text-fg-muted">
                Expires <DateTime iso={token.expiresAt} />. It is shown only once.
              </p>
              <div>
                <CopyButton value={token.token} label="Copy token" />
              </div>
            </div>
          )}
          <div>
            <IntentButton
              intent="api-token"
              variant="secondary"
              pendingLabel="Creating…"
              data-testid="create-api-token"
              onSuccess={(answer) => setToken(detailsOf(answer).apiToken)}
            >
              Create API token
            </IntentButton>
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
