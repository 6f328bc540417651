import { BookOpen, Hourglass } from "lucide-react";
import { useNavigation } from "react-router";
import type { ReaderData } from "../../../server/content/reader.ts";
import { ChapterPager } from "./chapter-pager";
import { ChapterSectionView } from "./chapter-section";
import { ChapterSidebar } from "./chapter-sidebar";

/** The chapter reader: sidebar, the chapter's title and sections, Previous / Next. */
export function Reader({ data }: { data: ReaderData }) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname.startsWith("/projects");
  const { chapters, current } = data;

  if (!current) return <ComingSoon />;

  return (
    <div className="grid gap-8 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-12">
      <aside aria-label="Chapter list" className="min-w-0">
        <ChapterSidebar chapters={chapters} currentSlug={current.chapter.slug} />
      </aside>
      <article data-testid="chapter" aria-busy={loading || undefined} className="min-w-0 max-w-3xl">
        <p className="font-mono text-sm font-semibold text-accent">Chapter {current.chapter.number}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl">
          {current.chapter.title}
        </h1>
        <p role="status" className="mt-2 min-h-5 text-sm text-fg-muted">
          {loading ? "Loading chapter content..." : ""}
        </p>
        <div className="mt-6">
          {current.sections.map((section) => (
            <ChapterSectionView key={section.id} section={section} />
          ))}
        </div>
        <ChapterPager previous={current.previous} next={current.next} />
      </article>
    </div>
  );
}

function ComingSoon() {
  return (
    <div data-testid="coming-soon" className="mx-auto max-w-xl py-12 text-center">
      <div className="mx-auto flex size-14 items-center justify-center rounded-full border border-line bg-surface-raised">
        <Hourglass aria-hidden="true" className="size-6 text-accent" />
      </div>
      <h1 className="mt-6 flex items-center justify-center gap-2 font-mono text-sm font-semibold text-accent">
        <BookOpen aria-hidden="true" className="size-4" />
        Projects & Courses
      </h1>
      <h2 className="mt-2 text-3xl font-bold tracking-tight text-fg sm:text-4xl">Coming Soon</h2>
      <p className="mt-4 text-fg-muted">No chapters available</p>
      <p className="mt-2 text-fg-muted">
        New projects and courses are being written. Check back soon, or subscribe to the newsletter on the home page.
      </p>
    </div>
  );
}
