import type { ServerResponse } from "node:http";

/**
 * Holds back the body of a response until it ends, so that it can be answered whole
 * (stored, compressed, given an ETag) instead of as it was written. Whether a response
 * is held is decided once, when its body starts: its status and headers are set by then.
 * Any other response, and one that grows past `maxBytes`, goes out as it is written.
 */
export interface CaptureOptions {
  /** A body growing past this many bytes is sent as it comes (what was held first). */
  maxBytes: number;
  /** Whether to hold this response; asked when its body starts. */
  holds(res: ServerResponse): boolean;
  /** Called once when the response goes out as it is written: not held, or grown past `maxBytes`. */
  onRelease?(): void;
  /**
   * The whole body of a held response. The response's own write() and end() are back
   * in place: this answers it (with end()).
   */
  onComplete(body: Buffer): void;
}

type Chunk = string | Uint8Array | null | undefined;
type Callback = (error?: Error | null) => void;

export function captureResponse(res: ServerResponse, options: CaptureOptions): void {
  const write = res.write;
  const end = res.end;
  const chunks: Buffer[] = [];
  let length = 0;
  /** Undefined until the body starts. */
  let holding: boolean | undefined;

  const restore = () => {
    res.write = write;
    res.end = end;
  };

  /** Whether this write is held; lets the response through (for good) when it is not. */
  const held = (chunk: Chunk, encoding: unknown): boolean => {
    if (holding === undefined) {
      holding = !res.headersSent && options.holds(res);
      if (!holding) options.onRelease?.();
    }
    if (holding && chunk !== null && chunk !== undefined) {
      const buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      length += buffer.length;
      chunks.push(buffer);
      if (length > options.maxBytes) {
        // Too large to keep: what was held goes out, the rest follows as it comes.
        holding = false;
        options.onRelease?.();
        chunks.pop();
        restore();
        for (const earlier of chunks) (write as (chunk: Buffer) => boolean).call(res, earlier);
        chunks.length = 0;
        return false;
      }
    }
    if (!holding) restore();
    return holding;
  };

  res.write = function holdWrite(this: ServerResponse, chunk: Chunk, ...rest: unknown[]): boolean {
    if (!held(chunk, rest[0])) return (write as (...all: unknown[]) => boolean).call(this, chunk, ...rest);
    const callback = rest.find((argument) => typeof argument === "function") as Callback | undefined;
    if (callback) process.nextTick(callback);
    return true;
  } as typeof res.write;

  res.end = function holdEnd(this: ServerResponse, chunk?: unknown, ...rest: unknown[]): ServerResponse {
    const body = typeof chunk === "function" ? undefined : (chunk as Chunk);
    const callback = [chunk, ...rest].find((argument) => typeof argument === "function") as Callback | undefined;
    if (!held(body, rest[0])) return (end as (...all: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    restore();
    if (callback) this.once("finish", callback);
    // A copy: the cache keeps it, and a writer's chunk may be a view of a larger buffer.
    options.onComplete(Buffer.concat(chunks, length));
    return this;
  } as typeof res.end;
}
