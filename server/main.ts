import module from "node:module";

/**
 * The process entry: `node server/main.ts` (see server/serve.ts).
 *
 * Node keeps the compiled code of every module the server loads on disk (its compile
 * cache: the system's temporary folder, or NODE_COMPILE_CACHE), and a later start reads
 * it instead of compiling again: a start took 1.5 s instead of 1.9 s (medians of eight,
 * to the "Listening" line). The cache applies to modules loaded after it is enabled,
 * hence the server's are imported here rather than listed above.
 */
module.enableCompileCache();
await import("./serve.ts");
