// Forgejo answers 205 Reset Content with a JSON body (the changed notification threads). Express empties the body
// of every 205, so it is written here directly.
import type { Response } from 'express';

export function sendResetContent(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  res.status(205);
  res.setHeader('Content-Type', 'application/json;charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
