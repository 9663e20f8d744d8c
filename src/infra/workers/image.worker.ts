// The image thread's side: decodes and renders what image-thread.ts posts, one job at a time.
import { parentPort } from 'node:worker_threads';
import { renderDefaultAvatar, renderUploadedAvatar } from '../../lib/avatar-image.ts';
import { ImageError, type ImageLimits } from '../../lib/image.ts';

export type ImageJob =
  | { kind: 'uploaded-avatar'; data: Uint8Array; size: number; limits: ImageLimits }
  | { kind: 'default-avatar'; id: number; size: number };

export type ImageReply =
  | { seq: number; png: Uint8Array }
  | { seq: number; error: { reason: ImageError['reason'] | 'failed'; message: string } };

function render(job: ImageJob): Promise<Buffer> {
  switch (job.kind) {
    case 'uploaded-avatar':
      return renderUploadedAvatar(
        Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength),
        job.size,
        job.limits,
      );
    case 'default-avatar':
      return renderDefaultAvatar(job.id, job.size);
  }
}

parentPort!.on('message', async ({ seq, job }: { seq: number; job: ImageJob }) => {
  let reply: ImageReply;
  try {
    reply = { seq, png: await render(job) };
  } catch (error) {
    const reason = error instanceof ImageError ? error.reason : 'failed';
    reply = { seq, error: { reason, message: error instanceof Error ? error.message : String(error) } };
  }
  parentPort!.postMessage(reply);
});
