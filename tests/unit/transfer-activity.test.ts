import { TransferActivity } from '../../src/infra/storage/transfer-activity.ts';

describe('TransferActivity', () => {
  it('is quiet at once when nothing has been transferred', async () => {
    const activity = new TransferActivity();
    const started = Date.now();
    await activity.quiet(1000);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits for a running transfer to end and then for the quiet time', async () => {
    const activity = new TransferActivity();
    let endTransfer!: () => void;
    const transfer = activity.during(() => new Promise<void>((resolve) => (endTransfer = resolve)));
    let quiet = false;
    const waiting = activity.quiet(200).then(() => (quiet = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(quiet).toBe(false);
    endTransfer();
    await transfer;
    const ended = Date.now();
    await waiting;
    expect(Date.now() - ended).toBeGreaterThanOrEqual(150);
  });

  it('counts a failed transfer as ended', async () => {
    const activity = new TransferActivity();
    await expect(activity.during(() => Promise.reject(new Error('reset')))).rejects.toThrow('reset');
    await activity.quiet(0);
  });
});
