// A TCP relay in front of a server that counts round trips: a client "turn" is data sent after
// the server last answered (or first), so commands written together, however the kernel splits
// them, count once, and commands sent after awaiting a reply count again.
import { createConnection, createServer, type Socket } from 'node:net';

export interface RoundTripCounter {
  /** Port of the relay on 127.0.0.1 (point the client here). */
  port: number;
  /** Client turns since the last reset, over all connections. */
  turns(): number;
  /** Bytes sent by clients since the last reset. */
  bytesIn(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startRoundTripCounter(targetPort: number): Promise<RoundTripCounter> {
  let turns = 0;
  let bytesIn = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ port: targetPort, host: '127.0.0.1' });
    let answered = true;
    sockets.add(client).add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk) => {
      if (answered) turns++;
      answered = false;
      bytesIn += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    turns: () => turns,
    bytesIn: () => bytesIn,
    reset: () => {
      turns = 0;
      bytesIn = 0;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
