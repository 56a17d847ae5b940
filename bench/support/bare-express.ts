// A bare Express 5 JSON route, the baseline the HTTP benchmark compares the server with. Prints its
// port on stdout and runs until killed.
import type { AddressInfo } from 'node:net';
import express from 'express';

const app = express();
app.use(express.json());
app.post('/x', (req, res) => {
  res.json({ ok: true, echo: typeof req.body === 'object' ? Object.keys(req.body).length : 0 });
});
const server = app.listen(0, '127.0.0.1', () => {
  console.log((server.address() as AddressInfo).port);
});
