import { request as httpRequest } from "node:http";
import type { StoredImage } from "../../app/components/media/media-api.ts";
import { header, type RawResponse, request } from "./client.ts";

/** Multipart uploads to POST /api/media, as the admin's upload control and API clients send them. */

export const BOUNDARY = "----bastion-media-test";

export function multipartBody(file: Buffer, filename: string, fields: Record<string, string> = {}): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.concat([
    Buffer.from(parts.join("")),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

export interface UploadAnswer {
  status: number;
  /** The stored image; a refused upload's answer holds `error` alone. */
  json: StoredImage & { error?: string };
  response: RawResponse;
}

export async function upload(
  base: string,
  file: Buffer,
  filename: string,
  auth: { cookie?: string; token?: string } = {},
  fields: Record<string, string> = {},
): Promise<UploadAnswer> {
  const body = multipartBody(file, filename, fields);
  const response = await request(`${base}/api/media`, {
    method: "POST",
    headers: {
      Origin: base,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
      "Content-Length": String(body.length),
      ...(auth.cookie ? { Cookie: auth.cookie } : {}),
      ...(auth.token ? { Authorization: `Bearer ${auth.token}` } : {}),
    },
    body,
  });
  const json = header(response, "content-type")?.startsWith("application/json") ? JSON.parse(response.text()) : {};
  return { status: response.status, json, response };
}

/**
 * Sends the start of a body and keeps the request open, and resolves with the answer
 * the server gives before the body is complete (it never will be), with what was sent.
 */
export function answerBeforeBodyEnds(
  url: string,
  headers: Record<string, string>,
  parts: Buffer[],
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: "POST", headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      const finish = () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          headers: response.headers,
        });
        outgoing.destroy();
      };
      response.once("end", finish);
      response.once("close", finish);
    });
    outgoing.once("error", (error) => {
      // The server closes the connection once it has answered.
      if (!["ECONNRESET", "EPIPE"].includes((error as NodeJS.ErrnoException).code ?? "")) reject(error);
    });
    outgoing.setTimeout(30_000, () => reject(new Error("No answer while the body was still being sent")));
    for (const part of parts) outgoing.write(part);
  });
}
