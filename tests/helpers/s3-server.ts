import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/**
 * A real S3-compatible server (s3rver) in the test process, on a free port, with one
 * empty bucket: the S3 storage driver is tested against it, never against a mock.
 */

export const S3_TEST_BUCKET = "bastion-media";
/** s3rver's fixed credentials. */
export const S3_TEST_KEY = "S3RVER";

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The S3_* environment of a Bastion server using it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3Server(): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), "bastion-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_TEST_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket: S3_TEST_BUCKET,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: S3_TEST_BUCKET,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3_TEST_KEY,
      S3_SECRET_ACCESS_KEY: S3_TEST_KEY,
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
