import { ExternalLink } from "lucide-react";
import { isWebUrl } from "~/components/public/external";
import { SITE_NAME } from "~/lib/meta";
import { FOOTER_QUICK_LINKS } from "./nav-items";

const LINK = "rounded-sm text-fg-muted underline-offset-4 hover:text-fg hover:underline";

/** linkedinUrl is null when the settings could not be loaded (the shell of an error page). */
export function SiteFooter({ linkedinUrl, year }: { linkedinUrl: string | null; year: number }) {
  const profileUrl = isWebUrl(linkedinUrl) ? linkedinUrl : null;
  return (
    <footer data-print="hide" className="border-t border-line bg-surface-raised">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-3">
        <div>
          <p className="text-lg font-semibold text-fg">{SITE_NAME}</p>
          <p className="mt-2 text-sm text-fg-muted">
            Security projects, courses, tips and resources from a working security professional.
          </p>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-fg">Quick links</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {FOOTER_QUICK_LINKS.map((item) => (
              <li key={item.to}>
                <a href={item.to} className={LINK}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
        {profileUrl && (
          <div>
            <h2 className="text-sm font-semibold text-fg">Connect</h2>
            <a
              href={profileUrl}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="footer-linkedin"
              className={`${LINK} mt-3 inline-flex items-center gap-1.5 text-sm`}
            >
              LinkedIn
              <ExternalLink aria-hidden="true" className="size-4" />
            </a>
          </div>
        )}
      </div>
      <div className="border-t border-line">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-fg-muted sm:px-6">
          {/* One text node, so the line reads the same in the raw HTML as on screen. */}
          {`© ${year} ${SITE_NAME}. All rights reserved.`}
        </p>
      </div>
    </footer>
  );
}
