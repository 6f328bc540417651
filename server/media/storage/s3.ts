import type { S3Client } from "@aws-sdk/client-s3";
import { isImageName } from "../names.ts";
import { IMMUTABLE_CACHE_CONTROL } from "../rules.ts";
import { FileExists, type MediaStorage, UnsafePath } from "./storage.ts";

export interface S3StorageOptions {
  /** An S3-compatible endpoint (MinIO, R2, …); unset for AWS itself. */
  endpoint: string | undefined;
  /** The S3 bucket (S3_BUCKET); files are keyed `<bucket>/<name>` inside it. */
  s3Bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The public base URL of the S3 bucket's root (a CDN, or the store's public address). */
  publicUrl: string | undefined;
  /** The logical bucket. */
  bucket: string;
}

/**
 * The base URL under which a key of the S3 bucket is public: S3_PUBLIC_URL, else the
 * endpoint's path-style address, else AWS's virtual-hosted one.
 */
export function s3PublicBase(
  options: Pick<S3StorageOptions, "endpoint" | "s3Bucket" | "region" | "publicUrl">,
): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, "");
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, "")}/${options.s3Bucket}`;
  return `https://${options.s3Bucket}.s3.${options.region}.amazonaws.com`;
}

/**
 * The AWS SDK, loaded when the storage is first used: a site whose media stay on local
 * disk never holds it (several MB of heap, measured in decision 018).
 */
const loadSdk = () => import("@aws-sdk/client-s3");

/** Media files in an S3-compatible bucket, served by the store (or its CDN) directly. */
export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const { bucket, s3Bucket } = options;
  let client: S3Client | undefined;
  /** The SDK's module and this storage's client, made on first use. */
  const connect = async () => {
    const sdk = await loadSdk();
    client ??= new sdk.S3Client({
      endpoint: options.endpoint,
      region: options.region,
      // Other stores rarely serve virtual-hosted buckets; AWS serves both.
      forcePathStyle: options.endpoint !== undefined,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums only where S3 requires them: several S3-compatible stores refuse the
      // CRC32 headers the SDK would otherwise add to every request.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    return { sdk, client };
  };
  const publicBase = s3PublicBase(options);
  const urlPrefix = `${publicBase}/${bucket}/`;

  const keyOf = (name: string): string => {
    if (!isImageName(name)) throw new UnsafePath(name);
    return `${bucket}/${name}`;
  };

  return {
    driver: "s3",
    bucket,
    imageOrigin: new URL(publicBase).origin,

    async put(name, body, contentType) {
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: s3Bucket,
            Key: keyOf(name),
            Body: body,
            ContentType: contentType,
            CacheControl: IMMUTABLE_CACHE_CONTROL,
            // Refused by the store when the key exists (stores without conditional writes ignore it;
            // names are random and the media table's (bucket, path) is unique in any case).
            IfNoneMatch: "*",
          }),
        );
      } catch (error) {
        if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 412)
          throw new FileExists(name);
        throw error;
      }
    },

    async get(name) {
      const { sdk, client } = await connect();
      try {
        const result = await client.send(new sdk.GetObjectCommand({ Bucket: s3Bucket, Key: keyOf(name) }));
        const body = Buffer.from((await result.Body?.transformToByteArray()) ?? []);
        return {
          body,
          contentType: result.ContentType ?? "application/octet-stream",
          cacheControl: result.CacheControl,
        };
      } catch (error) {
        if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
        throw error;
      }
    },

    async list() {
      const { sdk, client } = await connect();
      const files = [];
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({
            Bucket: s3Bucket,
            Prefix: `${bucket}/`,
            ContinuationToken: continuationToken,
          }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(bucket.length + 1) ?? "";
          if (!isImageName(name)) continue;
          files.push({
            path: name,
            bytes: object.Size ?? 0,
            modifiedAt: (object.LastModified ?? new Date(0)).toISOString(),
          });
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return files.sort((a, b) => a.path.localeCompare(b.path));
    },

    async delete(names) {
      // One request per key: DeleteObjects needs a checksum header some stores refuse.
      // Deleting a key that does not exist succeeds in S3.
      const { sdk, client } = await connect();
      await Promise.all(
        names.map((name) => client.send(new sdk.DeleteObjectCommand({ Bucket: s3Bucket, Key: keyOf(name) }))),
      );
    },

    url(name) {
      if (!isImageName(name)) throw new UnsafePath(name);
      return `${urlPrefix}${name}`;
    },

    pathOf(url) {
      if (!url.startsWith(urlPrefix)) return null;
      const name = url.slice(urlPrefix.length);
      return isImageName(name) ? name : null;
    },

    close: () => client?.destroy(),
  };
}
