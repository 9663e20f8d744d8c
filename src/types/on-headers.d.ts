// on-headers ships no types.
declare module 'on-headers' {
  import type { ServerResponse } from 'node:http';

  /** Calls `listener` (with the response as `this`) just before the response's headers are written. */
  function onHeaders(res: ServerResponse, listener: (this: ServerResponse) => void): void;
  export default onHeaders;
}
