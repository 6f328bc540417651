import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import Chromium from "@sparticuz/chromium";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Headless Chromium for the browser tests, without system packages: CHROME_PATH when
 * set, else the Chromium shipped inside @sparticuz/chromium, unpacked once into its
 * own folder under the system temp directory (left to itself, the package unpacks into
 * the temp directory's root and reuses whatever an earlier unpacking left there).
 */

const CHROMIUM_VERSION = "153";
const CHROMIUM_DIR = path.join(tmpdir(), `bastion-chromium-${CHROMIUM_VERSION}`);

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // From @sparticuz/chromium's own list: no phoning home, no prompts, stable text rendering.
  "--disable-domain-reliability",
  "--no-pings",
  "--no-default-browser-check",
  "--disable-print-preview",
  "--font-render-hinting=none",
  "--no-zygote",
];

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
export const MOBILE_VIEWPORT = { width: 390, height: 844 };

/**
 * The Chromium executable. Unpacking happens in a private staging folder renamed into
 * place, so parallel test workers never see a half-written binary.
 */
export async function chromiumExecutablePath(): Promise<string> {
  const configured = process.env.CHROME_PATH?.trim();
  if (configured) return configured;

  const executable = path.join(CHROMIUM_DIR, "chromium");
  if (existsSync(executable)) return executable;

  const staging = `${CHROMIUM_DIR}.staging-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  // @sparticuz/chromium unpacks into os.tmpdir(), read from TMPDIR when it starts unpacking.
  const previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  let unpacking: Promise<string>;
  try {
    unpacking = Chromium.executablePath();
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  }
  try {
    const unpacked = await unpacking;
    if (path.dirname(unpacked) !== staging) {
      throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, expected a file in ${staging}`);
    }
    renameSync(staging, CHROMIUM_DIR);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another worker may have won the race; its copy is as good as ours.
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

let launching: Promise<Browser> | undefined;

/** One browser per test file (worker); close it with closeBrowser() in afterAll. */
export function launchBrowser(): Promise<Browser> {
  launching ??= (async () => {
    const executablePath = await chromiumExecutablePath();
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
    // Without a system fontconfig, use the fonts shipped with @sparticuz/chromium.
    const bundledFonts = path.join(path.dirname(executablePath), "fonts");
    if (!existsSync("/etc/fonts/fonts.conf") && existsSync(bundledFonts)) env.FONTCONFIG_PATH ??= bundledFonts;
    return chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS, env, timeout: 60_000 });
  })();
  return launching;
}

export async function closeBrowser(): Promise<void> {
  const browser = launching;
  launching = undefined;
  if (browser) await (await browser.catch(() => undefined))?.close();
}

export interface NewPageOptions {
  javaScriptEnabled?: boolean;
  viewport?: { width: number; height: number };
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught page errors and console errors about the Content-Security-Policy. */
  problems: string[];
  close(): Promise<void>;
}

/** Pages of contexts created with javaScriptEnabled: false. */
const pagesWithoutJavaScript = new WeakSet<Page>();

/** A page in its own context (cookies, JS setting, viewport), as AxeBuilder requires. */
export async function newPage(options: NewPageOptions = {}): Promise<TestPage> {
  const browser = await launchBrowser();
  const javaScriptEnabled = options.javaScriptEnabled ?? true;
  const context = await browser.newContext({ javaScriptEnabled, viewport: options.viewport ?? DESKTOP_VIEWPORT });
  const page = await context.newPage();
  if (!javaScriptEnabled) pagesWithoutJavaScript.add(page);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /content security policy/i.test(message.text())) {
      problems.push(`CSP: ${message.text()}`);
    }
  });
  return { page, context, problems, close: () => context.close() };
}

/**
 * Waits for the public pages' script (app/enhancements/public-page.js), which loads
 * after the page's load event: before it runs, forms and buttons do what they do
 * without JavaScript. Returns at once on a page without JavaScript.
 */
export async function waitForPageScript(page: Page): Promise<void> {
  if (pagesWithoutJavaScript.has(page)) return;
  await page.waitForFunction(() => document.documentElement.classList.contains("js"));
}

/**
 * Runs work on a fresh page, then fails the test if the page threw or broke the
 * Content-Security-Policy meanwhile; the page's context is closed either way.
 */
export async function withPage(options: NewPageOptions, work: (testPage: TestPage) => Promise<void>): Promise<void> {
  const testPage = await newPage(options);
  testPage.page.setDefaultTimeout(10_000);
  try {
    await work(testPage);
    expect(testPage.problems, "page errors and CSP violations").toEqual([]);
  } finally {
    await testPage.close();
  }
}

/** The element's text with whitespace collapsed ("" when it has none). */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? "").replace(/\s+/g, " ").trim();
}

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe-core on the page as it is now; fails listing each violation and its elements.
 * In a page without JavaScript axe cannot run (the page's timers never fire), so it runs
 * on a copy: the page's current DOM, scripts removed, served at the same URL to a page
 * with JavaScript, where the styles and images load from the server as usual.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const violations = pagesWithoutJavaScript.has(page) ? await analyzeStaticCopy(page) : await analyze(page);
  if (violations.length === 0) return;
  const report = violations
    .map((violation) => {
      const targets = violation.nodes.map((node) => `    - ${node.target.join(" ")}: ${node.failureSummary ?? ""}`);
      return `  ${violation.id} (${violation.impact ?? "?"}): ${violation.help}\n${targets.join("\n")}`;
    })
    .join("\n");
  const mode = pagesWithoutJavaScript.has(page) ? " (JavaScript off)" : "";
  throw new Error(`Accessibility violations on ${page.url()}${mode}:\n${report}`);
}

/**
 * Legacy mode runs axe.run() in the page itself. The default mode finishes each run in
 * a new blank page (a renderer process started and closed per check), which made every
 * check cost several seconds on a busy machine; it exists for cross-origin iframes,
 * which the app has none of (same-origin frames are still checked in legacy mode).
 * Only violations are read, so axe collects no other kind of result (passes alone list
 * most of the page's elements).
 */
async function analyze(page: Page) {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(AXE_TAGS)
    .setLegacyMode()
    .analyze();
  return results.violations;
}

async function analyzeStaticCopy(page: Page) {
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "");
  const address = new URL(page.url());
  address.hash = "";
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: page.viewportSize() ?? DESKTOP_VIEWPORT });
  try {
    const copy = await context.newPage();
    await copy.route(
      (url) => url.href === address.href,
      (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    await copy.goto(address.href, { waitUntil: "load" });
    return await analyze(copy);
  } finally {
    await context.close();
  }
}
