import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumExecutablePath } from "../e2e/helpers/browser.ts";

/**
 * Lighthouse (mobile, its defaults) on a few pages, in the same headless Chromium as
 * the browser tests. Returns the four category scores per page (0–100), or the reason
 * it could not run, which the benchmark prints instead.
 */

export interface LighthouseScores {
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The lab metrics behind the performance score, as Lighthouse displays them (e.g. "1.2 s"). */
  metrics: string;
  /** Audits of the four categories that did not pass, by id. */
  failedAudits: string[];
}

const METRICS = {
  FCP: "first-contentful-paint",
  LCP: "largest-contentful-paint",
  TBT: "total-blocking-time",
  CLS: "cumulative-layout-shift",
  SI: "speed-index",
};

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

export async function lighthouseScores(urls: string[]): Promise<LighthouseScores[] | { skipped: string }> {
  let chrome: chromeLauncher.LaunchedChrome;
  try {
    chrome = await chromeLauncher.launch({
      chromePath: await chromiumExecutablePath(),
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  } catch (error) {
    return { skipped: `Chromium did not start for Lighthouse: ${(error as Error).message}` };
  }
  try {
    const results: LighthouseScores[] = [];
    for (const url of urls) {
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: CATEGORIES,
      });
      if (!run) return { skipped: `Lighthouse returned no result for ${url}` };
      const score = (id: string) => Math.round((run.lhr.categories[id]?.score ?? 0) * 100);
      results.push({
        url,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        metrics: Object.entries(METRICS)
          .map(([name, id]) => `${name} ${run.lhr.audits[id]?.displayValue ?? "?"}`)
          .join(", "),
        failedAudits: CATEGORIES.flatMap((category) =>
          (run.lhr.categories[category]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (run.lhr.audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => ref.id),
        ),
      });
    }
    return results;
  } finally {
    chrome.kill();
  }
}
