// An upload read twice at once: into the blob store, and by the registry's parser, which finds the package's name,
// version and metadata inside the file (Conda's info/index.json) while the bytes stream in, so a file of any size
// is read once and never held in memory. The body pauses for whichever of the two is slower.
import { PassThrough, type Readable } from 'node:stream';

export interface TeedUpload<T> {
  /** The bytes for the blob store. */
  forStore: Readable;
  /** What the parser found; once it settles, the store's copy alone sets the pace. */
  inspected: Promise<T>;
  /** Stops the parser's copy (the store refused the upload). */
  abort(error: Error): void;
}

function ignore(): void {}

/**
 * Splits the body between the store and `inspect`. The parser may stop reading early (it found what it needs): the
 * rest of its copy is drained. When it fails, the store's copy fails with its error, so nothing is kept.
 */
export function teeUpload<T>(body: Readable, inspect: (copy: Readable) => Promise<T>): TeedUpload<T> {
  const forStore = new PassThrough();
  const copy = new PassThrough();
  // Failures reach the caller through the store's and the parser's promises; a stream failed after its reader
  // finished must not become an unhandled 'error' event.
  forStore.on('error', ignore);
  copy.on('error', ignore);
  body.on('error', (error) => {
    forStore.destroy(error);
    copy.destroy(error);
  });
  body.pipe(forStore);
  body.pipe(copy);
  const drain = () => {
    copy.unpipe();
    copy.removeAllListeners('data');
    copy.resume();
  };
  // A parser waiting on a copy that was stopped would wait for ever: the stop settles the inspection too.
  let stop: (error: Error) => void = ignore;
  const stopped = new Promise<never>((_resolve, reject) => (stop = reject));
  stopped.catch(ignore);
  const inspected = Promise.race([(async () => inspect(copy))(), stopped]).then(
    (found) => {
      drain();
      return found;
    },
    (error: unknown) => {
      drain();
      body.unpipe(forStore);
      forStore.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    },
  );
  return {
    forStore,
    inspected,
    abort(error) {
      body.unpipe(copy);
      copy.destroy(error);
      stop(error);
    },
  };
}
