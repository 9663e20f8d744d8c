// Reads the body of `npm publish` as it arrives: a JSON document whose `_attachments.<file>.data` is the tarball in
// base64. The document is assembled without that string; its text is decoded as it comes and handed to the sink as
// a byte stream, so neither the base64 text nor the tarball is ever whole in memory (stream-json's tokenizer hands
// strings over in chunks). npm writes `versions` before `_attachments`, so the sink sees the version's metadata.
import { once } from 'node:events';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { parser } from 'stream-json';
import { Base64Decoder } from '../../lib/base64-decoder.ts';
import { BadRequestError, PayloadTooLargeError } from '../../domain/errors.ts';

type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** Takes the tarball: the document read so far, the attachment's name, and its bytes as they are decoded. */
export type AttachmentSink = (document: JsonObject, attachment: string, data: Readable) => Promise<void>;

interface Frame {
  value: JsonObject | Json[];
  key?: string;
}

/** How much text the document itself may hold (readmes included); the tarball is bounded elsewhere. */
const MAX_DOCUMENT_CHARACTERS = 16 * 1024 * 1024;
const PIPE_BYTES = 1024 * 1024;

const badBody = (why: string) => new BadRequestError(`invalid publish body: ${why}`);

class Attachment {
  readonly data = new PassThrough({ highWaterMark: PIPE_BYTES });
  private readonly decoder = new Base64Decoder();
  private failure: unknown;
  readonly settled: Promise<void>;

  constructor(sink: AttachmentSink, document: JsonObject, name: string) {
    this.settled = sink(document, name, this.data).catch((error: unknown) => {
      this.failure = error ?? new Error('the upload failed');
      this.data.destroy();
    });
  }

  async write(text: string): Promise<void> {
    this.throwIfFailed();
    if (this.data.write(this.decoder.write(text))) return;
    await Promise.race([once(this.data, 'drain'), this.settled]);
    this.throwIfFailed();
  }

  end(): void {
    this.data.end(this.decoder.end());
  }

  /** Waits for the sink; its failure is the body's. */
  async finish(): Promise<void> {
    await this.settled;
    this.throwIfFailed();
  }

  abort(error: unknown): void {
    this.data.destroy(error instanceof Error ? error : new Error('the upload failed'));
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

/** Reads the body; answers the document without the attachment's data, and whether an attachment came. */
export async function readPublishBody(
  body: Readable,
  sink: AttachmentSink,
): Promise<{ document: JsonObject; attached: boolean }> {
  const stack: Frame[] = [];
  let root: Json | undefined;
  let text: string[] = [];
  let characters = 0;
  let attachment: Attachment | null = null;
  let attached = false;
  const tokens = pipeline(
    body,
    parser.asStream({ packKeys: true, packStrings: false, streamStrings: true, packNumbers: true }),
    () => {},
  );

  const place = (value: Json) => {
    const frame = stack.at(-1);
    if (!frame) root = value;
    else if (Array.isArray(frame.value)) frame.value.push(value);
    else if (frame.key !== undefined) frame.value[frame.key] = value;
  };
  const isAttachmentData = () =>
    stack.length === 3 && stack[0].key === '_attachments' && stack[2].key === 'data' && !Array.isArray(stack[1].value);

  try {
    for await (const token of tokens as AsyncIterable<parser.Token>) {
      switch (token.name) {
        case 'startObject':
        case 'startArray': {
          const value: JsonObject | Json[] = token.name === 'startObject' ? {} : [];
          place(value);
          stack.push({ value });
          break;
        }
        case 'endObject':
        case 'endArray':
          stack.pop();
          break;
        case 'keyValue':
          characters += token.value.length;
          stack[stack.length - 1].key = token.value;
          break;
        case 'startString':
          if (isAttachmentData()) {
            if (attached) throw badBody('one attachment only');
            if (!root || Array.isArray(root) || typeof root !== 'object') throw badBody('not an object');
            attached = true;
            attachment = new Attachment(sink, root, stack[1].key ?? '');
          }
          text = [];
          break;
        case 'stringChunk':
          if (attachment) await attachment.write(token.value);
          else {
            characters += token.value.length;
            if (characters > MAX_DOCUMENT_CHARACTERS)
              throw new PayloadTooLargeError('the package document is too large');
            text.push(token.value);
          }
          break;
        case 'endString':
          if (attachment) {
            attachment.end();
            place('');
          } else place(text.join(''));
          text = [];
          break;
        case 'numberValue':
          place(Number(token.value));
          break;
        case 'nullValue':
        case 'trueValue':
        case 'falseValue':
          place(token.value);
          break;
        default:
          break;
      }
      if (token.name === 'endString' && attachment) {
        await attachment.finish();
        attachment = null;
      }
    }
  } catch (error) {
    if (attachment) {
      attachment.abort(error);
      await attachment.settled;
    }
    if (error instanceof Error && !(error instanceof BadRequestError) && /JSON|parser|token/i.test(error.message))
      throw badBody('not JSON');
    throw error;
  }
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw badBody('not a JSON object');
  return { document: root, attached };
}
