import { writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the calling thread to `nice` (null leaves it) and returns its nice value as the OS reports
 * it (null if unknown). On Linux 0 names the calling thread (each thread has its own nice value),
 * so this lowers this thread only, not the service. Never a higher priority than it has (a service
 * started under `nice 15` stays there). Elsewhere it may apply to the whole process or be refused;
 * neither is worth failing the thread's work for. Used by the service's own threads (the webhook
 * delivery thread, the CoA store thread).
 */
export function lowerThisThread(nice: number | null): number | null {
  if (nice !== null) {
    try {
      if (getPriority(0) < nice) setPriority(0, nice);
    } catch {
      // Not permitted: the thread runs at the process's priority.
    }
  }
  try {
    return getPriority(0);
  } catch {
    return null;
  }
}

/**
 * Names the calling thread (15 bytes at most), so an operator (`top -H`, `ps -L`) and the tests can
 * tell it from the service's others. Linux only: /proc/thread-self is the calling thread, and a
 * synchronous write runs on it. Call it after lowerThisThread: whoever finds the thread by its name
 * then sees its final priority.
 */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name);
  } catch {
    // No procfs: the thread keeps its inherited name.
  }
}
