/**
 * The V8 flag `serve` runs with (decision 0026): each isolate collects its own garbage on its own
 * thread, instead of sharing V8's helper threads. On the 2-core machines measured, the PDF worker's
 * concurrent marking took about 60 % of a core on those threads, and the main thread's parallel
 * scavenges waited for helpers the kernel had not scheduled. It is a command-line flag only:
 * NODE_OPTIONS refuses it, and `v8.setFlagsFromString` at run time crashes V8's concurrent marker.
 * `npm start` passes it; a process manager must too (deploy/README.md).
 */
export const SINGLE_THREADED_GC = '--single-threaded-gc';

/**
 * Whether this process's garbage collection is single-threaded, as V8 reads its command line: the
 * flag or `--single-threaded` (which implies it), the last of them and their `--no-` forms winning;
 * `-` and `_` alike in a flag's name.
 */
export function hasSingleThreadedGc(execArgv: readonly string[] = process.execArgv): boolean {
  let on = false;
  for (const a of execArgv) {
    const m = /^--(no-?)?single[-_]threaded(?:[-_]gc)?$/.exec(a);
    if (m) on = m[1] === undefined;
  }
  return on;
}

/** The banner's line when the flag is missing: what it costs and how to start the service with it. */
export const PARALLEL_GC_NOTICE = `Garbage collection: on V8's shared helper threads. Start the service as \`node ${SINGLE_THREADED_GC} bin/purerank.js serve\` (npm start does) for about half the CPU per CoA verification (decision 0026)`;
