import { useEffect } from "react";
import enhancementsUrl from "~/enhancements/public-page.js?url";
import { useNonce } from "../nonce";

/**
 * Loads the public pages' script (app/enhancements/public-page.js) once the page has
 * loaded, so that nothing competes with the first paint: from this inline script on
 * pages that are not hydrated, from the effect on pages React renders in the
 * browser. A module is evaluated once per URL, however often it is asked for.
 */
export function PublicEnhancements() {
  const nonce = useNonce();
  useEffect(() => {
    void import(/* @vite-ignore */ enhancementsUrl);
  }, []);
  const loader = `addEventListener("load",function(){var s=document.createElement("script");s.type="module";s.src=${JSON.stringify(enhancementsUrl)};document.head.append(s)})`;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, allowed by the CSP nonce.
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: loader }} />;
}
