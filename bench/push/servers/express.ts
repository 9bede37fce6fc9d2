/** Express: a bare `POST /push` with `express.json()`, and the Latchkey adapter. */
import { latchkeyExpress } from '@latchkey/adapter-express';
import express from 'express';
import { type BenchServer, listening } from './listening.js';

export const expressServer: BenchServer = {
  async bare(push) {
    const app = express();
    app.post('/push', express.json({ limit: '1mb' }), (req, res) => {
      const result = push(req.body);
      res.status(result.status).json(result.body);
    });
    return listening(app.listen(0, '127.0.0.1'));
  },
  async adapter(core) {
    const app = express();
    app.use(latchkeyExpress(core));
    return listening(app.listen(0, '127.0.0.1'));
  },
};
