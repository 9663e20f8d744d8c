// The yardstick for `npm run bench`: a bare express handler answering the same JSON with res.json().
import express from 'express';

const body = JSON.parse(process.env.BENCH_BODY ?? '{}');
const app = express();
app.get('/{*path}', (_req, res) => {
  res.json(body);
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
