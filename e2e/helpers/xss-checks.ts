import type { Page } from "playwright-core";
import { TRAP } from "./xss-corpus.ts";

/**
 * What the stored-XSS test looks for on a page: the trap every payload calls (installed
 * before any of the page's scripts), dialogs, and in the DOM the traces a payload leaves
 * when it was parsed as markup even if the Content-Security-Policy then kept it from
 * running: an inline event handler or a script holding the trap, an iframe srcdoc, a
 * link, source or form target of a script-capable scheme.
 */

export interface Trapped {
  /** The trap's calls (their argument: the payload index) and the dialogs opened. */
  fired(): Promise<string[]>;
}

/** Defines the trap in every document the page loads, and records dialogs (dismissed). */
export async function installTrap(page: Page): Promise<Trapped> {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  await page.addInitScript((trap: string) => {
    const calls: string[] = [];
    Object.defineProperty(window, `${trap}Calls`, { value: calls });
    Object.defineProperty(window, trap, {
      value: (...args: unknown[]) => {
        calls.push(`${trap}(${args.map(String).join(", ")}) on ${location.href}`);
      },
    });
  }, TRAP);
  return {
    async fired() {
      const calls = await page.evaluate((trap) => {
        const recorded = (window as unknown as Record<string, string[] | undefined>)[`${trap}Calls`];
        return recorded ? [...recorded] : [`the trap is not installed on ${location.href}`];
      }, TRAP);
      return [...calls, ...dialogs];
    },
  };
}

/**
 * The DOM's traces of markup that came from stored text (see the module comment), in the
 * document and in its templates' contents. React Router's own data script (admin pages)
 * carries the stored texts as string literals: it is allowed to, as long as it holds no
 * "<" that could end it.
 */
export function scanPage(page: Page): Promise<string[]> {
  return page.evaluate((trap) => {
    const problems: string[] = [];
    const badScheme = /^(javascript|data|vbscript|livescript):$/;
    const elements: Element[] = [];
    const collect = (root: ParentNode) => {
      for (const element of root.querySelectorAll("*")) {
        elements.push(element);
        if (element instanceof HTMLTemplateElement) collect(element.content);
      }
    };
    collect(document);
    const describe = (element: Element) => `<${element.localName}> ${element.outerHTML.slice(0, 160)}`;
    for (const element of elements) {
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith("on") && attribute.value.includes(trap)) {
          problems.push(`event handler ${name}: ${describe(element)}`);
        }
        if (name === "style" && attribute.value.includes(trap)) problems.push(`style: ${describe(element)}`);
        if (["href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcdoc"].includes(name)) {
          if (name === "srcdoc") {
            problems.push(`srcdoc: ${describe(element)}`);
            continue;
          }
          let protocol = "";
          try {
            protocol = new URL(attribute.value, document.baseURI).protocol;
          } catch {
            // Not a URL a browser would follow.
          }
          if (badScheme.test(protocol)) problems.push(`${name} of scheme ${protocol} ${describe(element)}`);
        }
      }
      if (element.localName === "meta" && /refresh/i.test(element.getAttribute("http-equiv") ?? "")) {
        problems.push(`meta refresh: ${describe(element)}`);
      }
      if (element.localName === "script") {
        const text = element.textContent ?? "";
        const routerData = text.includes("__reactRouterContext");
        if (text.includes(trap) && !routerData) problems.push(`script holding the trap: ${describe(element)}`);
        if (routerData && text.includes("<")) problems.push("React Router's data script holds a raw <");
      }
    }
    if (!document.baseURI.startsWith(location.origin) && location.origin !== "null") {
      problems.push(`base URI moved to ${document.baseURI}`);
    }
    return problems;
  }, TRAP);
}

/** Everything wrong with the page as it is now: trap calls, dialogs and DOM traces. */
export async function problemsOf(page: Page, trapped: Trapped): Promise<string[]> {
  const [fired, traces] = await Promise.all([trapped.fired(), scanPage(page)]);
  return [...fired, ...traces].map((problem) => `${page.url()}: ${problem}`);
}
