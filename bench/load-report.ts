import type { LoadResult } from "./load-generator.ts";

/** bench:load's printing: the per-page table of one scenario, and its figures beside their targets. */

const cell = (text: string | number, width: number) => String(text).padStart(width);
const label = (page: string) => (page.length > 44 ? `${page.slice(0, 43)}…` : page).padEnd(44);

/** req/s, requests, p50 and p99 per page, then all pages together; returns the totals. */
export function printPageTable(title: string, pages: string[], results: LoadResult[], seconds: number) {
  console.log("");
  console.log(title);
  console.log(
    `  ${"page".padEnd(44)} ${cell("req/s", 8)} ${cell("requests", 9)} ${cell("p50 ms", 8)} ${cell("p99 ms", 8)} ${cell("errors", 7)}`,
  );
  results.forEach((result, index) => {
    const requests = Math.round(result.perSecond * seconds);
    console.log(
      `  ${label(pages[index] as string)} ${cell(result.perSecond.toFixed(0), 8)} ${cell(requests, 9)} ${cell(result.p50.toFixed(2), 8)} ${cell(result.p99.toFixed(2), 8)} ${cell(result.failures, 7)}`,
    );
  });
  const perSecond = results.reduce((sum, result) => sum + result.perSecond, 0);
  const errors = results.reduce((sum, result) => sum + result.failures, 0);
  console.log(
    `  ${label(`all ${pages.length} pages`)} ${cell(perSecond.toFixed(0), 8)} ${cell(Math.round(perSecond * seconds), 9)} ${cell("", 8)} ${cell("", 8)} ${cell(errors, 7)}`,
  );
  if (errors > 0) {
    const kinds = results.map((result, index) => `${pages[index]}: ${result.failureKinds ?? result.failures}`);
    console.log(`  errors by kind: ${kinds.join("; ")}`);
  }
  return { perSecond, errors };
}

/** Figures beside their targets, PASS or MISS each; `passed()` says whether every one passed. */
export function targetChecks() {
  const outcomes: boolean[] = [];
  return {
    check(figure: string, target: string, pass: boolean) {
      console.log(`  ${figure.padEnd(96)} target ${target.padEnd(18)} ${pass ? "PASS" : "MISS"}`);
      outcomes.push(pass);
    },
    passed: () => outcomes.every(Boolean),
  };
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}
