// Feeds an upload through the digests into a writer (a file, an object store), for every blob store alike.
import { finished, type Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import type { BlobDigests, PutOptions } from './blob-store.ts';
import { DigestStream } from './digest-stream.ts';

/**
 * Streams the source through a DigestStream into `write` and returns the digests once it has written everything.
 * The source is never destroyed (it may be a request still to be answered): on failure it is unpiped and paused.
 */
export async function receiveDigested(
  source: Readable,
  options: PutOptions,
  write: (body: Readable) => Promise<void>,
): Promise<BlobDigests> {
  const digest = new DigestStream(options.maxBytes, options.budget, options.algorithms);
  // Why the body failed (too large, cut off) matters more than what the writer made of it (an aborted upload).
  let bodyError: unknown;
  digest.once('error', (error) => {
    bodyError = error;
  });
  // A source that closes early (a client gone mid-upload) fails the copy instead of ending it.
  const stopWatching = finished(source, (error) => {
    if (error) digest.destroy(error);
  });
  source.pipe(digest);
  try {
    await write(digest);
    return digest.digests();
  } catch (writeError) {
    const error = bodyError ?? writeError;
    source.unpipe(digest);
    source.pause();
    digest.destroy();
    // A client gone mid-body is its own doing, not a failure of the server.
    const code = (error as NodeJS.ErrnoException).code;
    if (source.readableAborted || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new BadRequestError('the body ended before it was complete');
    }
    throw error;
  } finally {
    stopWatching();
  }
}
