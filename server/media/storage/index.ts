import type { Config } from "../../config.ts";
import { MEDIA_BUCKET } from "../rules.ts";
import { createLocalStorage } from "./local.ts";
import { createS3Storage, s3PublicBase } from "./s3.ts";
import type { MediaStorage } from "./storage.ts";

/** The configured storage: S3 when S3_BUCKET and its keys are set, else local disk under DATA_DIR. */
export function createMediaStorage(config: Pick<Config, "s3" | "dataDir" | "publicOrigin">): MediaStorage {
  if (config.s3) {
    return createS3Storage({
      endpoint: config.s3.endpoint,
      s3Bucket: config.s3.bucket,
      region: config.s3.region,
      accessKeyId: config.s3.accessKeyId,
      secretAccessKey: config.s3.secretAccessKey,
      publicUrl: config.s3.publicUrl,
      bucket: MEDIA_BUCKET,
    });
  }
  return createLocalStorage({ dataDir: config.dataDir, bucket: MEDIA_BUCKET, publicOrigin: config.publicOrigin });
}

/**
 * Origins the pages' images may come from besides the site itself (the CSP's img-src,
 * and the image sections' check): the media storage's, and IMAGE_ORIGINS.
 */
export function imageOriginsBesidesSite(config: Pick<Config, "s3" | "imageOrigins">): string[] {
  const storage = config.s3 ? [new URL(s3PublicBase({ ...config.s3, s3Bucket: config.s3.bucket })).origin] : [];
  return [...new Set([...storage, ...config.imageOrigins])];
}

/** Every origin an image section's URL may point to: the site's own and imageOriginsBesidesSite's. */
export function sectionImageOrigins(config: Pick<Config, "s3" | "imageOrigins" | "publicOrigin">): string[] {
  return [config.publicOrigin, ...imageOriginsBesidesSite(config)];
}
