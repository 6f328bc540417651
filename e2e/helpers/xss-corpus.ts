/**
 * Stored-XSS payloads for e2e/stored-xss.test.ts. Each one, if it ever ran, would call
 * the page's trap `__xss(<its index>)` (never a real alert), so a run that fires tells
 * which payload got through. `url` payloads are links of a scheme other than http(s)
 * (or obfuscations a browser would still read as one): every URL field must refuse them.
 */

export const TRAP = "__xss";

export interface Payload {
  index: number;
  text: string;
  /** A non-http(s) link: URL fields must refuse it. */
  url: boolean;
}

type Template = (call: string, index: number) => string;

/** Markup, attribute and template payloads: harmless as text, dangerous as HTML. */
const MARKUP: Template[] = [
  (c) => `<script>${c}</script>`,
  (c) => `<SCRIPT>${c}</SCRIPT>`,
  (c) => `<script src="data:text/javascript,${c}"></script>`,
  (c) => `<script>/*</script><script>*/${c}</script>`,
  (c) => `<scr<script>ipt>${c}</scr</script>ipt>`,
  (c) => `<img src=x onerror=${c}>`,
  (c) => `<img src="x" onerror="${c}">`,
  (c) => `<IMG SRC=x OnErRoR=${c}>`,
  (c) => `<img/src=x/onerror=${c}>`,
  (c) => `<img src=x onerror=&#x5f;&#x5f;xss(${c.slice(6, -1)})>`,
  (c) => `<svg onload=${c}>`,
  (c) => `<svg><script>${c}</script></svg>`,
  (c) => `<svg><animate onbegin=${c} attributeName=x dur=1s>`,
  (c) => `<svg><a xlink:href="javascript:${c}"><text x=20 y=20>x</text></a></svg>`,
  (c) => `<body onload=${c}>`,
  (c) => `<input autofocus onfocus=${c}>`,
  (c) => `<select autofocus onfocus=${c}></select>`,
  (c) => `<textarea autofocus onfocus=${c}></textarea>`,
  (c) => `<details open ontoggle=${c}>`,
  (c) => `<video><source onerror=${c}></video>`,
  (c) => `<audio src=x onerror=${c}>`,
  (c) => `<marquee onstart=${c}>x</marquee>`,
  (c) => `<div onmouseover=${c} style="position:fixed;inset:0">x</div>`,
  (c) => `<object data="javascript:${c}"></object>`,
  (c) => `<embed src="javascript:${c}">`,
  (c) => `<iframe src="javascript:${c}"></iframe>`,
  (c) => `<iframe srcdoc="<script>parent.${c}</script>"></iframe>`,
  (c) => `<iframe srcdoc="&lt;img src=x onerror=parent.${c}&gt;"></iframe>`,
  (c) => `<a href="javascript:${c}">click</a>`,
  (c) => `<a href="JaVaScRiPt:${c}">click</a>`,
  (c) => `<a href="&#106;avascript:${c}">click</a>`,
  (c) => `<a href="data:text/html,<script>${c}</script>">click</a>`,
  (c) => `<form action="javascript:${c}"><button>go</button></form>`,
  (c) => `<button formaction="javascript:${c}">go</button>`,
  (c) => `<base href="javascript:${c}//">`,
  (c) => `<link rel=stylesheet href="javascript:${c}">`,
  (c) => `<meta http-equiv="refresh" content="0;url=javascript:${c}">`,
  (c) => `<style>@import 'javascript:${c}';</style>`,
  (c) => `<div style="width:expression(${c})">x</div>`,
  (c) => `<div style="background:url(javascript:${c})">x</div>`,
  (c) => `"><img src=x onerror=${c}>`,
  (c) => `'><img src=x onerror=${c}>`,
  (c) => `" onmouseover="${c}" x="`,
  (c) => `' onfocus='${c}' autofocus x='`,
  (c) => `" autofocus onfocus=${c} x="`,
  (c) => `"><svg/onload=${c}>`,
  (c) => `'-${c}-'`,
  (c) => `";${c};//`,
  (c) => `\\";${c};//`,
  (c) => `</script><script>${c}</script>`,
  (c) => `</textarea><script>${c}</script>`,
  (c) => `</title><script>${c}</script>`,
  (c) => `</style><script>${c}</script>`,
  (c) => `</noscript><img src=x onerror=${c}>`,
  (c) => `</template><img src=x onerror=${c}>`,
  (c) => `</option></select><img src=x onerror=${c}>`,
  (c) => `<!--<img src="--><img src=x onerror=${c}//">`,
  (c) => `<![CDATA[<script>${c}</script>]]>`,
  (c) => `{{constructor.constructor('${c}')()}}`,
  (c) => `{{$on.constructor('${c}')()}}`,
  (c) => `\${${c}}`,
  (c) => `#{${c}}`,
  (c) => `<%= ${c} %>`,
  (c) => `{${c}}`,
  (c) => `{{{${c}}}}`,
  (c) => `<div dangerouslySetInnerHTML={{__html: "<img src=x onerror=${c}>"}} />`,
  (c) => `<math><mtext><table><mglyph><style><img src=x onerror=${c}>`,
  (c) => `<math><mtext></table><mglyph><style><img src=x onerror=${c}>`,
  (c) => `<svg></p><style><a id="</style><img src=1 onerror=${c}>">`,
  (c) => `<noscript><p title="</noscript><img src=x onerror=${c}>">`,
  (c) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${c}>`,
  (c) => `<xmp><img src=x onerror=${c}></xmp>`,
  (c) => `<plaintext><img src=x onerror=${c}>`,
  (c) => `<img src=x onerror=${c.replace("(", "`").replace(")", "`")}>`,
  (c) => `<img src=x onerror=window['__x'+'ss'](${c.slice(6, -1)})>`,
  (c) => `<img src=x onerror=eval(atob('${Buffer.from(c).toString("base64")}'))>`,
  (c) => `<img src=x onerror=\u0000${c}>`,
  (c) => `<scr\u0000ipt>${c}</scr\u0000ipt>`,
  (c) => `\uFF1Cscript\uFF1E${c}\uFF1C/script\uFF1E`,
  (c) => `\u003Cimg src=x onerror=${c}\u003E`,
  (c) => `&lt;img src=x onerror=${c}&gt;`,
  (c) => `&#60;script&#62;${c}&#60;/script&#62;`,
  (c) => `%3Cscript%3E${c}%3C%2Fscript%3E`,
  (c) => `\\u003cscript\\u003e${c}\\u003c/script\\u003e`,
  (c) => `\u202E<img src=x onerror=${c}>`,
  (c) => `<img src=x onerror=${c}>\u2028\u2029`,
  (c) => `[x](javascript:${c})`,
  (c) => `[x](JaVaScRiPt:${c})`,
  (c) => `[x](data:text/html,<script>${c}</script>)`,
  (c) => `![x](x" onerror="${c})`,
  (c) => `<javascript:${c}>`,
  (c) => `[x]: javascript:${c}`,
  (c) => `\`\`\`html\n<script>${c}</script>\n\`\`\``,
  (c) => `<img src=x onerror=${c}\n>`,
  (c) => `<img\tsrc=x\tonerror=${c}>`,
  (c) => `<a href=javascript&colon;${c}>x</a>`,
  (c) => `<isindex type=image src=1 onerror=${c}>`,
  (c) => `<keygen autofocus onfocus=${c}>`,
  (c) => `<image src=x onerror=${c}>`,
  (c) => `<style onload=${c}></style>`,
  (c) => `<x contenteditable onfocus=${c} autofocus>x</x>`,
];

/** Links of another scheme than http(s), plain and obfuscated. */
const URLS: Template[] = [
  (c) => `javascript:${c}`,
  (c) => `JaVaScRiPt:${c}`,
  (c) => `java\tscript:${c}`,
  (c) => `java\nscript:${c}`,
  (c) => `java\rscript:${c}`,
  (c) => ` javascript:${c}`,
  (c) => `\u0001javascript:${c}`,
  (c) => `\u0000javascript:${c}`,
  (c) => `javascript://%0A${c}`,
  (c) => `javascript:/*https://example.com*/${c}`,
  (c) => `javascript&colon;${c}`,
  (c) => `&#106;avascript:${c}`,
  (c) => `data:text/html,<script>${c}</script>`,
  (c) => `data:text/html;base64,${Buffer.from(`<script>${c}</script>`).toString("base64")}`,
  (c) => `DATA:text/html,<img src=x onerror=${c}>`,
  (c) => `data:image/svg+xml,<svg onload=${c}>`,
  (c) => `vbscript:msgbox(${c})`,
  (c) => `VBScript:${c}`,
  (c) => `livescript:${c}`,
  (c) => `blob:https://example.com/${c}`,
  (c) => `file:///etc/passwd#${c}`,
  (c) => `//evil.example/${c}`,
  (c) => `/\\evil.example/${c}`,
  (c) => `\\\\evil.example/${c}`,
];

export const PAYLOADS: readonly Payload[] = [
  ...MARKUP.map((template) => ({ template, url: false })),
  ...URLS.map((template) => ({ template, url: true })),
].map(({ template, url }, index) => ({ index, text: template(`${TRAP}(${index})`, index), url }));

export const URL_PAYLOADS = PAYLOADS.filter((payload) => payload.url);

/**
 * An http(s) link carrying the payload (spaces and control characters left out, which
 * URL fields refuse): URL fields store it, and the pages must still only ever put it
 * in an attribute, escaped.
 */
export function httpVariant(payload: Payload): string {
  return `https://xss.example/${payload.index}/${payload.text.replace(/[\s\p{Cc}]/gu, "")}`;
}

/**
 * A path on this site carrying the payload, for image URLs: the Content-Security-Policy
 * lets pages load images from the site alone, so an image elsewhere would only report a
 * violation and hide the ones that matter.
 */
export function pathVariant(payload: Payload): string {
  return `/xss/${payload.index}/${payload.text.replace(/[\s\p{Cc}]/gu, "")}`;
}

/** The payloads that fit a field of at most `max` characters (after trimming). */
export function fitting(max: number): Payload[] {
  return PAYLOADS.filter((payload) => payload.text.trim().length <= max);
}

/**
 * The payloads packed into as few texts of at most `max` characters as they fit in,
 * one per line (a payload longer than `max` is left out): a field of each text then
 * carries them all (all of `from`, by default the whole corpus).
 */
export function packed(max: number, separator = "\n", from: readonly Payload[] = PAYLOADS): string[] {
  const texts: string[] = [];
  let current = "";
  for (const { text } of from.filter((payload) => payload.text.trim().length <= max)) {
    const candidate = current ? `${current}${separator}${text}` : text;
    if (candidate.length <= max) current = candidate;
    else {
      texts.push(current);
      current = text;
    }
  }
  if (current) texts.push(current);
  return texts;
}

/** The i-th of `items`, round and round. */
export const cycle = <T>(items: readonly T[], i: number): T => items[i % items.length] as T;
