// Gives a received chunk's memory back at once. Each chunk of a request body is its own allocation outside V8's
// heap, freed only by a garbage collection; V8 counts such memory against the old generation's limit, so under the
// server's small heap a 100 MiB upload set off a full collection every few megabytes (half of its CPU). Posting
// the chunk's buffer, transferred, to a closed port detaches it (V8 stops counting it) and drops it (it is freed).
import { MessageChannel } from 'node:worker_threads';

let dropPort: MessageChannel['port1'] | undefined;

function closedPort(): MessageChannel['port1'] {
  if (!dropPort) {
    const channel = new MessageChannel();
    channel.port2.close();
    dropPort = channel.port1;
  }
  return dropPort;
}

/**
 * Frees the chunk's memory now; the chunk (and every view of its buffer) is empty afterwards. Only for a chunk that
 * nothing else holds, and that is the whole of its buffer (never a slice of a shared pool); any other is left alone.
 */
export function releaseChunk(chunk: Buffer): void {
  if (chunk.byteOffset !== 0 || chunk.byteLength !== chunk.buffer.byteLength || chunk.byteLength === 0) return;
  if (chunk.buffer instanceof SharedArrayBuffer) return;
  closedPort().postMessage(null, [chunk.buffer]);
}
