// V8's young generation grows (towards the semi-spaces npm start allows) while the application's modules load, and
// keeps that size while the server idles: about 10 MiB of its RSS. Its growth is held during the start and allowed
// once the server listens, so it grows back only under requests (within seconds of sustained load, measured).
import v8 from 'node:v8';

/** V8's own default. */
const GROWTH_FACTOR = 2;

export function holdYoungGeneration(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

export function releaseYoungGeneration(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
}
