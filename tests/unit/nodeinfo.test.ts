import { toNodeInfo } from '../../src/convert/nodeinfo.ts';

describe('toNodeInfo', () => {
  it('leaves zero counts out, as Forgejo does', () => {
    const body = JSON.parse(
      JSON.stringify(
        toNodeInfo({
          openRegistrations: true,
          usage: { users: 2, activeMonth: 0, activeHalfyear: 1, issues: 0, comments: 0 },
        }),
      ),
    );
    expect(body.usage).toEqual({ users: { total: 2, activeHalfyear: 1 } });
  });

  it('shows an empty users object when statistics are not shared', () => {
    expect(toNodeInfo({ openRegistrations: false, usage: null }).usage).toEqual({ users: {} });
  });
});
