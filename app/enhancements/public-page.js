/**
 * The public pages' behaviour, without React: these pages are not hydrated (see
 * docs/decisions/009-public-pages-without-hydration.md). Their HTML works without
 * JavaScript; this script, loaded once the page has loaded, adds what only script
 * can do. Everything is delegated from the document, so markup that React renders
 * later (on the public pages that are hydrated) is enhanced the same way.
 * Plain JavaScript, type-checked from its JSDoc (tsconfig checkJs): it is served as
 * it is, with a hashed name (imported with ?url).
 */

const COPIED_STATE_MS = 2000;
const SUCCESS_STATE_MS = 6000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

document.documentElement.classList.add("js");

// ---- Copy buttons of code sections

/** @param {string} text */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the async clipboard API (or its permission): a selection and execCommand,
    // then the focus back where it was (the Copy button), not on the document.
    const focused = document.activeElement;
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    if (focused instanceof HTMLElement) focused.focus();
  }
}

/** @type {WeakMap<Element, ReturnType<typeof setTimeout>>} */
const copiedTimers = new WeakMap();

/** @param {HTMLElement} button @param {boolean} copied */
function showCopied(button, copied) {
  button.toggleAttribute("data-copied", copied);
  const label = button.querySelector("[data-copy-label]");
  if (label) label.textContent = copied ? "Copied!" : "Copy";
  const hint = button.querySelector("[data-copy-hint]");
  if (hint) hint.textContent = copied ? "" : " code";
  for (const part of button.querySelectorAll("[data-copy-idle]")) part.classList.toggle("hidden", copied);
  for (const part of button.querySelectorAll("[data-copy-done]")) part.classList.toggle("hidden", !copied);
}

/** @param {HTMLElement} button */
async function copyCode(button) {
  const code = button.closest("[data-code-block]")?.querySelector("pre")?.textContent ?? "";
  await copyText(code);
  showCopied(button, true);
  clearTimeout(copiedTimers.get(button));
  copiedTimers.set(
    button,
    setTimeout(() => showCopied(button, false), COPIED_STATE_MS),
  );
}

// ---- Image lightbox

/** @param {HTMLAnchorElement} link */
function openLightbox(link) {
  const template = link.parentElement?.querySelector("template[data-lightbox-template]");
  if (!(template instanceof HTMLTemplateElement)) return false;
  const dialog = template.content.firstElementChild?.cloneNode(true);
  if (!(dialog instanceof HTMLDialogElement)) return false;
  // Escape closes a modal dialog natively; any click closes it too.
  dialog.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    dialog.remove();
    link.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return true;
}

// ---- Theme toggle

/**
 * Presses the toggle's button of the document's theme. The server renders the public
 * pages in the "system" theme for everyone (the page cache shares them); the page's
 * first inline script has applied the visitor's cookie to <html data-theme> since.
 */
function showDocumentTheme() {
  const theme = document.documentElement.dataset.theme;
  for (const option of document.querySelectorAll("[data-theme-option]")) {
    option.setAttribute("aria-pressed", String(option.getAttribute("data-theme-option") === theme));
  }
}

showDocumentTheme();

/** @param {HTMLButtonElement} button */
function chooseTheme(button) {
  const theme = button.dataset.themeOption;
  const cookie = button.dataset.themeCookie;
  if (!theme || !cookie) return false;
  // biome-ignore lint/suspicious/noDocumentCookie: the same plain cookie the server sets and reads.
  document.cookie = location.protocol === "https:" ? `${cookie}; Secure` : cookie;
  document.documentElement.dataset.theme = theme;
  showDocumentTheme();
  return true;
}

// ---- Newsletter form

/** @type {WeakMap<Element, ReturnType<typeof setTimeout>>} */
const successTimers = new WeakMap();

/**
 * Shows one of the form's messages (the server renders each tone's alert in a
 * template), or none.
 * @param {HTMLFormElement} form @param {"success" | "error" | null} tone @param {string} [text]
 */
function showFormMessage(form, tone, text = "") {
  const slot = form.querySelector("[data-form-message]");
  const input = form.querySelector("input[name=email]");
  if (!slot || !input) return;
  slot.replaceChildren();
  input.removeAttribute("aria-invalid");
  input.removeAttribute("aria-describedby");
  if (!tone) return;
  const template = form.querySelector(`template[data-alert="${tone}"]`);
  if (!(template instanceof HTMLTemplateElement)) return;
  const alert = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  const textSlot = alert.querySelector("[data-alert-text]");
  if (textSlot) textSlot.textContent = text;
  slot.append(alert);
  input.setAttribute("aria-describedby", slot.id);
  if (tone === "error" && text === form.dataset.invalidMessage) input.setAttribute("aria-invalid", "true");
}

/** Buttons that had the focus when they were disabled for a submit. */
const focusedWhenDisabled = new WeakSet();

/** @param {HTMLFormElement} form @param {boolean} submitting */
function showSubmitting(form, submitting) {
  const button = form.querySelector("button[type=submit]");
  if (!(button instanceof HTMLButtonElement)) return;
  if (submitting && document.activeElement === button) focusedWhenDisabled.add(button);
  button.disabled = submitting;
  button.textContent = submitting ? "Subscribing..." : "Subscribe";
  // A disabled button drops the focus: give it back, so the keyboard goes on from here.
  if (!submitting && focusedWhenDisabled.delete(button) && document.activeElement === document.body) button.focus();
}

/** @param {HTMLFormElement} form */
async function subscribe(form) {
  const submit = form.querySelector("button[type=submit]");
  if (submit instanceof HTMLButtonElement && submit.disabled) return;
  const fields = new FormData(form);
  const success = () => {
    showFormMessage(form, "success", form.dataset.successMessage);
    clearTimeout(successTimers.get(form));
    successTimers.set(
      form,
      setTimeout(() => showFormMessage(form, null), SUCCESS_STATE_MS),
    );
  };
  // The honeypot: a filled hidden field silently ends here, like a success.
  if (String(fields.get("website") ?? "") !== "") {
    success();
    return;
  }
  const email = String(fields.get("email") ?? "").trim();
  if (!EMAIL_PATTERN.test(email)) {
    showFormMessage(form, "error", form.dataset.invalidMessage);
    return;
  }
  showSubmitting(form, true);
  try {
    const response = await fetch(form.action, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ email }),
    });
    /** @type {{ success?: boolean; message?: string } | null} */
    const body = await response.json().catch(() => null);
    if (!response.ok || !body?.success) {
      showFormMessage(form, "error", body?.message || form.dataset.failureMessage);
      return;
    }
    form.reset();
    success();
  } catch {
    showFormMessage(form, "error", form.dataset.failureMessage);
  } finally {
    showSubmitting(form, false);
  }
}

// ---- Disclosures (the mobile menu): Escape, a click outside and the focus leaving close them

/** @param {HTMLDetailsElement} details */
function closeDisclosure(details, focusSummary = false) {
  details.open = false;
  if (focusSummary) details.querySelector("summary")?.focus();
}

// ---- Wiring, delegated from the document

document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  const copyButton = target.closest("[data-copy-code]");
  if (copyButton instanceof HTMLElement) {
    void copyCode(copyButton);
    return;
  }
  const lightboxLink = target.closest("a[data-lightbox]");
  if (lightboxLink instanceof HTMLAnchorElement) {
    // Modified clicks open the file in a new tab as usual.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (openLightbox(lightboxLink)) event.preventDefault();
    return;
  }
  const themeButton = target.closest("button[data-theme-option]");
  if (themeButton instanceof HTMLButtonElement && chooseTheme(themeButton)) {
    event.preventDefault();
    return;
  }
  // A link in an open disclosure menu: close it (the page may not reload).
  const menu = target.closest("details[data-closes-on-escape]");
  if (menu instanceof HTMLDetailsElement && target.closest("a")) closeDisclosure(menu);
});

document.addEventListener("pointerdown", (event) => {
  for (const menu of document.querySelectorAll("details[data-closes-on-escape][open]")) {
    if (event.target instanceof Node && !menu.contains(event.target))
      closeDisclosure(/** @type {HTMLDetailsElement} */ (menu));
  }
});

// Focus leaving an open menu (Tab past its last link) closes it: left open, it would
// cover the controls the focus moved to.
document.addEventListener("focusout", (event) => {
  const menu = event.target instanceof Element ? event.target.closest("details[data-closes-on-escape][open]") : null;
  const next = event.relatedTarget;
  if (menu instanceof HTMLDetailsElement && next instanceof Node && !menu.contains(next)) closeDisclosure(menu);
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !(event.target instanceof Element)) return;
  const menu = event.target.closest("details[data-closes-on-escape][open]");
  if (menu instanceof HTMLDetailsElement) closeDisclosure(menu, true);
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-newsletter-form")) return;
  event.preventDefault();
  void subscribe(form);
});

// The browser's own validation bubbles would replace the form's inline messages.
for (const form of document.querySelectorAll("form[data-newsletter-form]")) {
  form.setAttribute("novalidate", "");
}
