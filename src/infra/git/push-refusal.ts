// The answer to a push refused before git has read all of it (its pack would pass the owner's quota): what
// receive-pack would answer for a refused unpack, every ref update marked as rejected, the reason in front of it
// where the client reads messages (side-band channel 2), so the pusher sees "remote: Quota exceeded" and
// "[remote rejected]" as when Forgejo's pre-receive hook declines (routers/private/hook_pre_receive.go).
import { FLUSH_PKT, pktLine } from './pkt-line.ts';

export class PushRefusal extends Error {
  constructor(
    readonly reason: string,
    private readonly refs: readonly string[],
    private readonly sideBand: boolean,
  ) {
    super(reason);
  }

  /** The whole response body. */
  body(): string {
    const status = `unpack ${this.reason}\n`;
    const rejected = this.refs.map((ref) => pktLine(`ng ${ref} ${this.reason}\n`));
    const report = [pktLine(status), ...rejected, FLUSH_PKT].join('');
    if (!this.sideBand) return report;
    return `${pktLine(`\x02${this.reason}\n`)}${pktLine(`\x01${report}`)}${FLUSH_PKT}`;
  }
}
