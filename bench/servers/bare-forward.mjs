// The floor a team would write instead of engage-proxy: node:http, JSON.parse of the body, the
// key added as Basic auth, forwarded over a keep-alive undici Pool, the answer passed back.
// `node bare-forward.mjs PORT UPSTREAM_PORT`
import { createServer } from 'node:http';
import { Pool } from 'undici';

const pool = new Pool(`http://127.0.0.1:${process.argv[3]}`);
const authorization = `Basic ${Buffer.from('ENGAGEDEMO01:bench-key').toString('base64')}`;
createServer((req, res) => {
  const chunks = [];
  const forward = async () => {
    try {
      const text = Buffer.concat(chunks).toString();
      JSON.parse(text);
      const upstream = await pool.request({
        path: '/v1/experiences/events',
        method: 'POST',
        headers: { authorization, 'svc-appkey': 'ENGAGEDEMO01', 'content-type': 'application/json' },
        body: text,
      });
      const body = await upstream.body.text();
      res.writeHead(upstream.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch {
      res.writeHead(502).end();
    }
  };
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => void forward());
}).listen(Number(process.argv[2]), '127.0.0.1');
// An exit of its own, so that `--cpu-prof` writes its profile (bench/profile-proxy.mjs bare).
process.on('SIGTERM', () => process.exit(0));
