// The benches' upstream: answers every request 200 with a small JSON body, as fast as Node can,
// so the figures measure the proxy in front of it. `node upstream.mjs PORT`
import { createServer } from 'node:http';

const ok = '{"status":"success","message":"accepted"}';
createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': ok.length }).end(ok));
}).listen(Number(process.argv[2]), '127.0.0.1');
