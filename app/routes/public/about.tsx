import { Award, Briefcase, ExternalLink, FileText, Milestone, Target } from "lucide-react";
import { CERTIFICATION_STATUS_BADGES, TIMELINE_CATEGORY_LABELS } from "~/components/about-admin/labels";
import { isWebUrl } from "~/components/public/external";
import { publicPageMeta } from "~/components/public/page-meta";
import { STAGGER_CLASS, staggerStyle } from "~/components/public/stagger";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button-variants";
import { servicesContext } from "~/context";
import { summarize } from "../../../server/content/summary.ts";
import type { Route } from "./+types/about";

/** The experience section is fixed text (spec): the current role and the internship before it. */
const EXPERIENCE = [
  {
    role: "Cybersecurity Engineer",
    period: "May 2023 – Present",
    description:
      "Runs vulnerability management and cloud security work: scanning programmes, AWS hardening and turning findings into fixes engineering teams can ship.",
  },
  {
    role: "Cybersecurity Intern",
    period: "June 2022 – May 2023",
    description:
      "Supported the security team with vulnerability scanning, reporting and remediation tracking, and automated recurring checks.",
  },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return { about: await services.content.about(), origin: services.config.publicOrigin };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? publicPageMeta({
        title: "About",
        description: aboutDescription(loaderData.about),
        origin: loaderData.origin,
        path: "/about",
        type: "profile",
      })
    : [];

/**
 * "Name, title. First paragraph of the biography", leaving out what the editor left
 * blank (only the name is required), so no stray ", ." reaches search results.
 */
function aboutDescription({ name, title, bio }: { name: string; title: string; bio: string[] }): string {
  const who = [name.trim(), title.trim()].filter(Boolean).join(", ");
  const firstParagraph = bio.map((paragraph) => paragraph.trim()).find(Boolean);
  return summarize(firstParagraph ? `${who}. ${firstParagraph}` : who);
}

const SECTION_TITLE = "flex items-center gap-2 text-2xl font-semibold tracking-tight text-fg";

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { about } = loaderData;
  // The settings hold http(s) links only; a value from before that rule is not linked.
  const linkedin = isWebUrl(about.linkedinUrl) ? about.linkedinUrl : null;
  const resume = isWebUrl(about.resumeUrl) ? about.resumeUrl : null;
  return (
    <div className="space-y-16">
      <header className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div>
          <p className="font-mono text-sm font-semibold text-accent">About</p>
          <h1 data-testid="about-name" className="mt-2 text-4xl font-bold tracking-tight text-fg sm:text-5xl">
            {about.name}
          </h1>
          {about.title.trim() && (
            <p data-testid="about-title" className="mt-2 text-xl text-fg-muted">
              {about.title}
            </p>
          )}
          <div data-testid="about-bio" className="mt-6 space-y-4 text-lg leading-relaxed text-fg">
            {about.bio.map((paragraph, index) =>
              // biome-ignore lint/suspicious/noArrayIndexKey: the three bio paragraphs are fixed slots.
              paragraph ? <p key={index}>{paragraph}</p> : null,
            )}
          </div>
          <div className="mt-8 flex flex-wrap gap-3">
            {linkedin && (
              <a
                href={linkedin}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="about-linkedin"
                aria-label="Connect on LinkedIn (opens in a new tab)"
                className={buttonVariants({ variant: "primary" })}
              >
                Connect on LinkedIn
                <ExternalLink aria-hidden="true" className="size-4" />
              </a>
            )}
            {resume && (
              <a
                href={resume}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="about-resume"
                aria-label="View Resume (opens in a new tab)"
                className={buttonVariants({ variant: "secondary" })}
              >
                <FileText aria-hidden="true" className="size-4" />
                View Resume
              </a>
            )}
          </div>
        </div>
        {/* The mission may be left blank in the editor: no empty card then. */}
        {about.mission.trim() && (
          <aside
            aria-labelledby="mission-title"
            data-testid="about-mission"
            className="self-start rounded-xl border border-line bg-surface-raised p-6"
          >
            <h2 id="mission-title" className="flex items-center gap-2 text-lg font-semibold text-fg">
              <Target aria-hidden="true" className="size-5 text-accent" />
              Mission
            </h2>
            <p className="mt-3 leading-relaxed text-fg-muted">{about.mission}</p>
          </aside>
        )}
      </header>

      <section aria-labelledby="experience-title">
        <h2 id="experience-title" className={SECTION_TITLE}>
          <Briefcase aria-hidden="true" className="size-6 text-accent" />
          Experience
        </h2>
        <ol data-testid="experience" className="mt-6 space-y-6 border-l-2 border-line pl-6">
          {EXPERIENCE.map((item) => (
            <li key={item.role} className="relative">
              <span aria-hidden="true" className="absolute top-1.5 -left-[1.9rem] size-3 rounded-full bg-accent" />
              <h3 className="text-lg font-semibold text-fg">{item.role}</h3>
              <p className="font-mono text-sm text-accent">{item.period}</p>
              <p className="mt-2 max-w-3xl leading-relaxed text-fg-muted">{item.description}</p>
            </li>
          ))}
        </ol>
      </section>

      {about.certifications.length > 0 && (
        <section aria-labelledby="certifications-title">
          <h2 id="certifications-title" className={SECTION_TITLE}>
            <Award aria-hidden="true" className="size-6 text-accent" />
            Certifications
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {about.certifications.map((certification, index) => {
              const status = CERTIFICATION_STATUS_BADGES[certification.status];
              return (
                <li
                  key={certification.id}
                  data-testid="certification"
                  style={staggerStyle(index)}
                  className={`${STAGGER_CLASS} flex flex-col gap-2 rounded-lg border border-line bg-surface-raised p-5`}
                >
                  <div className="flex items-start justify-between gap-3">
                    <h3 className="font-semibold text-fg">{certification.name}</h3>
                    <Badge tone={status.tone} className="shrink-0 whitespace-nowrap">
                      {status.label}
                    </Badge>
                  </div>
                  {certification.organization && <p className="text-sm text-accent">{certification.organization}</p>}
                  {certification.description && (
                    <p className="text-sm leading-relaxed text-fg-muted">{certification.description}</p>
                  )}
                  {certification.date && (
                    <p className="mt-auto pt-2 font-mono text-xs text-fg-muted">{certification.date}</p>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {about.skills.length > 0 && (
        <section aria-labelledby="skills-title">
          <h2 id="skills-title" className={SECTION_TITLE}>
            Technical Skills
          </h2>
          <ul className="mt-6 grid gap-x-10 gap-y-5 sm:grid-cols-2">
            {about.skills.map((skill, index) => {
              const level = Math.max(0, Math.min(100, Math.round(skill.level)));
              return (
                <li key={skill.id} data-testid="skill" style={staggerStyle(index, "skill")} className={STAGGER_CLASS}>
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <span id={`skill-${skill.id}`} className="font-medium text-fg">
                      {skill.name}
                      {skill.category && <span className="ml-2 text-xs text-fg-muted">{skill.category}</span>}
                    </span>
                    <span className="font-mono text-fg-muted">{level}%</span>
                  </div>
                  <div
                    role="progressbar"
                    aria-labelledby={`skill-${skill.id}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={level}
                    className="mt-2 h-2 overflow-hidden rounded-full bg-line"
                  >
                    <div className="h-full rounded-full bg-accent" style={{ width: `${level}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {about.timeline.length > 0 && (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title" className={SECTION_TITLE}>
            <Milestone aria-hidden="true" className="size-6 text-accent" />
            Timeline
          </h2>
          <ol data-testid="timeline" className="mt-6 space-y-6 border-l-2 border-line pl-6">
            {about.timeline.map((event) => (
              <li key={event.id} data-testid="timeline-event" className="relative">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <h3 className="text-lg font-semibold text-fg">{event.title}</h3>
                  <Badge>{TIMELINE_CATEGORY_LABELS[event.category]}</Badge>
                </div>
                {event.date && <p className="font-mono text-sm text-accent">{event.date}</p>}
                {event.description && (
                  <p className="mt-2 max-w-3xl leading-relaxed text-fg-muted">{event.description}</p>
                )}
                <span aria-hidden="true" className="absolute top-1.5 -left-[1.9rem] size-3 rounded-full bg-accent" />
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
