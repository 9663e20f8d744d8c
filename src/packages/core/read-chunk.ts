// Reads a stream one chunk at a time without taking it over (its data stays for whoever reads it next), for
// registries that look at the front of an upload before it streams on to the blob store.
import type { Readable } from 'node:stream';

/** The next chunk, or null at the end; rejects with the stream's error. */
export function readChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) return finish(() => resolve(chunk));
      if (stream.readableEnded || stream.destroyed) return finish(() => resolve(null));
    };
    const onEnd = () => finish(() => resolve(null));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () => finish(() => resolve(null));
    function finish(settle: () => void) {
      stream.off('readable', attempt);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      settle();
    }
    stream.on('readable', attempt);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
    attempt();
  });
}
