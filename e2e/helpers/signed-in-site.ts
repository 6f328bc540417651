import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import {
  addSessionCookies,
  type SiteWithAccounts,
  signInEach,
  startSiteWithAccounts,
  type TestAccount,
} from "../../tests/helpers/accounts.ts";
import type { TestDialect } from "../../tests/helpers/databases.ts";
import { closeBrowser, launchBrowser, type TestPage } from "./browser.ts";

export interface SignedInSite<Key extends string> {
  /** Set once the file's beforeAll has run. */
  site: SiteWithAccounts;
  base: string;
  /** Each account's Cookie header. */
  sessions: Record<Key, string>;
  /** Gives the page's context the account's session and returns the page. */
  signedIn(testPage: TestPage, who: Key): Promise<Page>;
  /** Runs `work` on the site's database, through a connection of its own closed after it. */
  database<T>(work: (db: DatabaseHandle["db"]) => Promise<T>): Promise<T>;
  /**
   * Posts a form to a page's action as `who`, as the page's fetchers do (`{path}.data`),
   * whatever the browser would have checked first; redirects are not followed.
   */
  postForm(path: string, fields: Record<string, string>, who: Key): Promise<Response>;
}

/**
 * For a browser test file (or one `describe` of it) of the admin area: before its
 * tests, a server on a fresh database (SQLite unless told otherwise) with these
 * accounts (after `seed`), the browser, and every account signed in from its own
 * address in `subnet` (see signInEach); after them, all stopped.
 */
export function setUpSignedInSite<Key extends string>(options: {
  accounts: Record<Key, TestAccount>;
  subnet: string;
  seed?: (database: DatabaseHandle) => Promise<void>;
  dialect?: TestDialect;
  /** Extra environment of the server. */
  env?: Record<string, string | undefined>;
}): SignedInSite<Key> {
  const state = {
    signedIn: async (testPage: TestPage, who: Key) => {
      await addSessionCookies(testPage.context, state.sessions[who], state.base);
      return testPage.page;
    },
    database: async (work) => {
      const handle = await state.site.openDatabase();
      try {
        return await work(handle.db);
      } finally {
        await handle.close();
      }
    },
    postForm: (path, fields, who) =>
      fetch(`${state.base}${path}.data`, {
        method: "POST",
        headers: {
          Cookie: state.sessions[who],
          Origin: state.base,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      }),
  } as SignedInSite<Key>;

  beforeAll(async () => {
    [state.site] = await Promise.all([
      startSiteWithAccounts({
        dialect: options.dialect ?? "sqlite",
        accounts: Object.values(options.accounts),
        // The sign-ins come from their own proxy-reported addresses.
        server: { env: { ...options.env, TRUST_PROXY: "true" } },
        seed: options.seed,
      }),
      launchBrowser(),
    ]);
    state.base = state.site.server.url;
    state.sessions = await signInEach(state.base, options.accounts, options.subnet);
  });

  afterAll(async () => {
    await closeBrowser();
    await state.site?.stop();
  });

  return state;
}
