import path from "node:path";
import type { RequestHandler } from "express";
import { imageTypeOfName } from "../media/image-type.ts";
import { isImageName } from "../media/names.ts";
import { IMMUTABLE_CACHE_CONTROL } from "../media/rules.ts";
import type { LocalStorage } from "../media/storage/local.ts";

/**
 * GET /media/<bucket>/<name>: images of the local storage driver. Only names the media
 * module makes are served (no path can leave the folder), with the type their
 * extension was written from, nosniff, and cached for good: a name is never reused.
 */
export function serveLocalMedia(storage: LocalStorage): RequestHandler {
  return (req, res, next) => {
    const { bucket, name } = req.params as { bucket: string; name: string };
    const type = imageTypeOfName(name);
    if (bucket !== storage.bucket || !isImageName(name) || !type) return notFound(res);
    const file = storage.filePath(name);
    res.sendFile(
      path.basename(file),
      {
        // The folder as root: send then judges only the name against `dotfiles`, where
        // with an absolute path it judged every folder above it too, and a DATA_DIR such
        // as ~/.bastion made every image a 403.
        root: path.dirname(file),
        // Set only when the file is sent: a 404 is neither typed as an image nor cached.
        headers: {
          "Content-Type": type.mime,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": IMMUTABLE_CACHE_CONTROL,
        },
        cacheControl: false,
        dotfiles: "deny",
      },
      (error?: Error & { status?: number; code?: string }) => {
        if (!error) return;
        // The visitor left (closed the page) while the image was arriving: nothing went wrong here.
        if (error.code === "ECONNABORTED") return;
        if (error.status === 404 && !res.headersSent) return notFound(res);
        next(error);
      },
    );
  };
}

function notFound(res: Parameters<RequestHandler>[1]): void {
  res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found");
}
