import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";

/**
 * Dependencies a site may never use are loaded on first use (decision 018): a server
 * serving visitors on the embedded defaults must not hold them. A child process loads
 * every module the server's entry loads before it listens, with a resolve hook that
 * writes down each package resolved by its name (nodemailer's address parser, a file of
 * its own, is imported at start on purpose), then uses the modules the way a visitor's request
 * does not: an upload, an email over SMTP, an S3 request, a password set.
 */

const LOADED_ON_FIRST_USE = ["sharp", "@aws-sdk/client-s3", "nodemailer", "@zxcvbn-ts/language-common"];

const ONE_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const RECORD_RESOLUTIONS = `
import { registerHooks } from "node:module";
globalThis.resolvedSpecifiers = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    globalThis.resolvedSpecifiers.add(specifier);
    return nextResolve(specifier, context);
  },
});
`;

/** The packages of LOADED_ON_FIRST_USE that `script` (run after the server's modules are loaded) resolved. */
function packagesResolved(script: string): string[] {
  const program = `
    await import("./server/services.ts");
    await import("./server/http/app.ts");
    await import("./server/http/cached-pages.ts");
    await import("./server/http/page-cache/index.ts");
    const { createMediaStorage } = await import("./server/media/storage/index.ts");
    const { createMailTransport } = await import("./server/mail/transport.ts");
    const { passwordProblem } = await import("./server/auth/password-policy.ts");
    const { processImage } = await import("./server/media/process-image.ts");
    ${script}
    const wanted = ${JSON.stringify(LOADED_ON_FIRST_USE)};
    console.log(JSON.stringify(wanted.filter((name) => globalThis.resolvedSpecifiers.has(name))));
  `;
  const output = execFileSync(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(RECORD_RESOLUTIONS)}`,
      "--input-type=module",
      "-e",
      program,
    ],
    { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  return JSON.parse(output.trim().split("\n").at(-1) ?? "[]") as string[];
}

describe("dependencies loaded on first use", () => {
  it("are not loaded with the server's modules", () => {
    expect(packagesResolved("")).toEqual([]);
  }, 60_000);

  it("are loaded when first used", () => {
    const firstUse = `
      const s3 = createMediaStorage({
        dataDir: "/nonexistent",
        publicOrigin: "http://localhost",
        s3: { bucket: "b", region: "us-east-1", accessKeyId: "k", secretAccessKey: "s", endpoint: "http://127.0.0.1:9", publicUrl: undefined },
      });
      await s3.get("missing.png").catch(() => {});
      s3.close();
      const mail = createMailTransport({ publicOrigin: "http://localhost", mail: { smtpUrl: "smtp://127.0.0.1:9", from: "a@example.com" } });
      await mail.send({ id: "x", to_address: "b@example.com", subject: "s", text_body: "t", html_body: "h", headers: {} }).catch(() => {});
      mail.close();
      passwordProblem("correct horse battery staple");
      await processImage(Buffer.from(${JSON.stringify(ONE_PIXEL_PNG)}, "base64"));
    `;
    expect(packagesResolved(firstUse).sort()).toEqual([...LOADED_ON_FIRST_USE].sort());
  }, 60_000);
});
