import { startTestApp } from '../tests/helpers/test-app.ts';
import { createTestUser } from '../tests/helpers/factories.ts';
(async () => {
  const t = await startTestApp();
  const u = await createTestUser(t);
  const r = await t.request().get(`/api/v1/activitypub/user-id/${u.user.id}`);
  console.log(r.status, r.text);
  await t.close();
})();
