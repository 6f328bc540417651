import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import type { OutgoingHttpHeader } from "node:http";
import path from "node:path";
import { freePort } from "../tests/helpers/server.ts";
import { INSTALL_HINT, onPath } from "./load-generator.ts";

/**
 * What bench:web compares the server with, serving the bytes the server answered:
 * - nginx (one worker process), the static server a deployment would put in front;
 * - a minimal node:http server answering each page from memory with the server's own
 *   precomputed headers and body: the ceiling of the Node runtime itself, which no
 *   Node server can pass.
 */

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

async function waitUntilServing(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
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

/** A minimal node:http server answering the saved pages from memory, headers included. */
export async function startMinimalNode(root: string, pages: SavedPage[]): Promise<Baseline> {
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
    createServer((req, res) => {
      const page = pages.get(req.url);
      if (!page) { res.writeHead(404).end(); return; }
      const answer = (req.headers["accept-encoding"] ?? "").includes("gzip") ? page.gzip : page.identity;
      res.writeHead(200, answer.headers);
      res.end(answer.body);
    }).listen(${port}, "127.0.0.1");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const name = "minimal node:http (the same headers and bodies, from memory)";
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(url, child, name);
  return { name, url, pid: child.pid as number, stop: () => child.kill("SIGTERM") };
}
