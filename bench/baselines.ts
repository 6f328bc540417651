import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest, type OutgoingHttpHeader } from "node:http";
import path from "node:path";
import { SERVER_OPTIONS } from "../server/http/listeners.ts";
import { freePort } from "../tests/helpers/free-port.ts";
import { BROWSER_HEADERS, INSTALL_HINT, onPath } from "./load-generator.ts";

/**
 * What bench:web compares the server with, serving the bytes the server answered:
 * - nginx (one worker process), the static server a deployment would put in front;
 * - a minimal node:http server answering each page from memory with the server's own
 *   precomputed headers and body, created with the server's own options: the ceiling of
 *   the Node runtime itself, which no Node server can pass.
 */

export const ENCODINGS = ["identity", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** A browser's document load of a page, asking for `encoding`. */
export function encodingHeaders(encoding: Encoding): Record<string, string> {
  return encoding === "gzip" ? { ...BROWSER_HEADERS, "Accept-Encoding": "gzip" } : BROWSER_HEADERS;
}

export interface SavedPage {
  path: string;
  /** The server's answer per encoding: its headers (one flat list) and body. */
  identity: { headers: OutgoingHttpHeader[]; body: Buffer };
  gzip: { headers: OutgoingHttpHeader[]; body: Buffer };
}

export interface Baseline {
  name: string;
  url: string;
  pid: number;
  stop(): void;
}

/** Headers of one response or connection: not replayed by the node:http baseline. */
const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** The server's raw answer (headers and undecoded body) to a browser's request. */
function fetchRaw(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: OutgoingHttpHeader[]; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () => {
        const flat: OutgoingHttpHeader[] = [];
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          const name = response.rawHeaders[index] as string;
          if (!PER_RESPONSE.has(name.toLowerCase())) flat.push(name, response.rawHeaders[index + 1] as string);
        }
        resolve({ status: response.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
    });
    outgoing.once("error", reject);
    outgoing.end();
  });
}

/** The server's answers to each page in each encoding, for the baselines to serve. */
export async function savePages(serverUrl: string, paths: string[]): Promise<SavedPage[]> {
  const saved: SavedPage[] = [];
  for (const page of paths) {
    const answers = {} as Record<Encoding, { headers: OutgoingHttpHeader[]; body: Buffer }>;
    for (const encoding of ENCODINGS) {
      const answer = await fetchRaw(`${serverUrl}${page}`, encodingHeaders(encoding));
      if (answer.status !== 200) throw new Error(`${page} answered ${answer.status}`);
      answers[encoding] = answer;
    }
    saved.push({ path: page, ...answers });
  }
  return saved;
}

async function waitUntilServing(url: string, child: ChildProcess, name: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/`)).ok) return;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The baseline (${name}) did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** nginx serving the pages from `root` (index.html and its gzip_static index.html.gz), or undefined without nginx. */
export async function startNginx(root: string, pages: SavedPage[]): Promise<Baseline | undefined> {
  const nginx = onPath("nginx");
  if (!nginx) return undefined;
  for (const page of pages) {
    const folder = path.join(root, "site", page.path);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "index.html"), page.identity.body);
    writeFileSync(path.join(folder, "index.html.gz"), page.gzip.body);
  }
  const prefix = path.join(root, "nginx");
  mkdirSync(path.join(prefix, "logs"), { recursive: true });
  const port = await freePort();
  const conf = path.join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  gzip_static on;
  gzip_vary on;
  types { text/html html; }
  server {
    listen 127.0.0.1:${port};
    root ${path.join(root, "site")};
    location / { index index.html; try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  const child = spawn(nginx, ["-p", prefix, "-c", conf], { stdio: ["ignore", "ignore", "inherit"] });
  const name = `nginx (${nginx}, 1 worker process, gzip_static)`;
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, name);
  return { name, url, pid: child.pid as number, stop: () => child.kill("SIGTERM") };
}

/** The nginx line bench:web prints when nginx is not installed. */
export const NGINX_MISSING = `nginx is not installed (${INSTALL_HINT}): no nginx rows`;

/**
 * A minimal node:http server answering the saved pages from memory, headers included.
 * `wrapper` is a command that runs it (valgrind's, for bench:instructions), with `env`
 * as its environment. With `endTogether`, it ends the answers of each turn of the event
 * loop together after the turn, as the server's page cache does
 * (server/http/page-cache/ends-together.ts): the ceiling of a Node server that does so.
 */
export async function startMinimalNode(
  root: string,
  pages: SavedPage[],
  {
    wrapper = [],
    env = process.env,
    endTogether = false,
  }: { wrapper?: string[]; env?: NodeJS.ProcessEnv; endTogether?: boolean } = {},
): Promise<Baseline> {
  const file = path.join(root, "pages.json");
  writeFileSync(
    file,
    JSON.stringify(
      pages.map((page) => ({
        path: page.path,
        identity: { headers: page.identity.headers, body: page.identity.body.toString("base64") },
        gzip: { headers: page.gzip.headers, body: page.gzip.body.toString("base64") },
      })),
    ),
  );
  const port = await freePort();
  const ending = endTogether
    ? {
        setUp: `let queued = [];
    const endQueued = () => {
      const ending = queued;
      queued = [];
      for (let index = 0; index < ending.length; index += 2) ending[index].end(ending[index + 1]);
    };`,
        end: "if (queued.length === 0) setImmediate(endQueued);\n      queued.push(res, answer.body);",
      }
    : { setUp: "", end: "res.end(answer.body);" };
  const script = `
    import { createServer } from "node:http";
    import { readFileSync } from "node:fs";
    const pages = new Map();
    for (const page of JSON.parse(readFileSync(${JSON.stringify(file)}, "utf8"))) {
      pages.set(page.path, {
        identity: { headers: page.identity.headers, body: Buffer.from(page.identity.body, "base64") },
        gzip: { headers: page.gzip.headers, body: Buffer.from(page.gzip.body, "base64") },
      });
    }
    ${ending.setUp}
    createServer(${JSON.stringify(SERVER_OPTIONS)}, (req, res) => {
      const page = pages.get(req.url);
      if (!page) { res.writeHead(404).end(); return; }
      const answer = (req.headers["accept-encoding"] ?? "").includes("gzip") ? page.gzip : page.identity;
      res.writeHead(200, answer.headers);
      ${ending.end}
    }).listen(${port}, "127.0.0.1");
  `;
  const command = [...wrapper, process.execPath, "--input-type=module", "-e", script];
  const child = spawn(command[0] as string, command.slice(1), { env, stdio: ["ignore", "ignore", "inherit"] });
  const name = `minimal node:http (the same headers and bodies, from memory, and the server's createServer options${endTogether ? "; each turn's answers ended together" : ""})`;
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, name, wrapper.length ? 120_000 : 10_000);
  return { name, url, pid: child.pid as number, stop: () => child.kill("SIGTERM") };
}
