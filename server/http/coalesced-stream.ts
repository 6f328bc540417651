import { Transform } from "node:stream";

/**
 * A pass-through stream that joins the chunks written to it in one turn of the event
 * loop into one chunk. React writes a page as many 2 KB chunks in one go; the
 * compression middleware hands each chunk it gets to zlib's thread pool and waits for
 * it, so a 190 KB admin page took about a hundred event-loop turns to compress, over
 * a second when the server was busy. Joined, it takes a few.
 *
 * It never holds data past the current turn (a microtask), so a streamed page is not
 * delayed, and it accepts writes at once: it buffers at most what its writer wrote in
 * one turn.
 */
export function coalescedStream(options: { final?: (callback: () => void) => void } = {}): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const release = (stream: Transform) => {
    scheduled = false;
    if (pending.length === 0) return;
    const joined = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending = [];
    stream.push(joined);
  };
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(() => release(stream));
      }
      callback();
    },
    flush(callback) {
      release(stream);
      if (options.final) options.final(() => callback());
      else callback();
    },
  });
  return stream;
}
