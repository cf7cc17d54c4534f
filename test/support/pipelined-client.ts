import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A minimal pipelining HTTP/1.1 client over one keep-alive socket, for tests that must send tens of
 * thousands of requests quickly and exactly as written (odd headers included), which fetch and
 * http.request would normalize or slow down. Responses must carry Content-Length (ours do).
 */
export class PipelinedClient {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: RawResponse) => void; reject: (e: Error) => void }[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    const fail = (err: Error) => {
      for (const w of this.waiting.splice(0)) w.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(port: number): Promise<PipelinedClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new PipelinedClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends the requests back to back and resolves with their responses, in order. */
  send(requests: string[]): Promise<RawResponse[]> {
    const answers = requests.map(
      () => new Promise<RawResponse>((resolve, reject) => this.waiting.push({ resolve, reject })),
    );
    this.socket.write(requests.join(''));
    return Promise.all(answers);
  }

  close(): void {
    this.socket.destroy();
  }

  private drain(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.waiting.shift()?.resolve({ status: Number(head[0]!.split(' ')[1]), headers, body });
    }
  }
}

/** A GET request line and headers, as raw text. */
export const rawGet = (path: string, headers: Record<string, string> = {}): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
