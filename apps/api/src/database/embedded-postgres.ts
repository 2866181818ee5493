import { mkdirSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** Frontend messages after which the client waits for the server: the end of one unit of work. */
const BATCH_END = new Set(['S', 'Q', 'H']);
const NOTIFICATION_RESPONSE = 0x41; // 'A'
const LISTEN_STATEMENT = /^\s*(UN)?LISTEN\s+(\*|"((?:[^"]|"")+)"|[A-Za-z_][\w$]*)/i;

interface Batch {
  conn: Connection;
  bytes: Uint8Array;
}

interface Connection {
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  pending: Buffer[];
  /** Channels this client LISTENs on: the one shared session hears them all, so we route by name. */
  channels: Set<string>;
}

/** The SQL text of a simple Query ('Q') or Parse ('P') message, else null. */
function statementText(message: Buffer): string | null {
  const type = String.fromCharCode(message[0]);
  if (type === 'Q') return message.toString('utf8', 5, message.length - 1);
  if (type !== 'P') return null;
  const nameEnd = message.indexOf(0, 5);
  return message.toString('utf8', nameEnd + 1, message.indexOf(0, nameEnd + 1));
}

/** Applies the LISTEN / UNLISTEN statements in `sql` to `channels`. */
export function trackListens(sql: string, channels: Set<string>): void {
  const withoutComments = sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
  for (const statement of withoutComments.split(';')) {
    const match = LISTEN_STATEMENT.exec(statement);
    if (!match) continue;
    const [, unlisten, raw, quoted] = match;
    const channel = quoted !== undefined ? quoted.replace(/""/g, '"') : raw.toLowerCase();
    if (!unlisten) channels.add(channel);
    else if (raw === '*') channels.clear();
    else channels.delete(channel);
  }
}

/**
 * The embedded single-node database: PGlite served over the PostgreSQL wire protocol on 127.0.0.1, so the
 * app talks to it with the same `pg` driver it uses for a real server.
 *
 * PGlite has one session, so client connections take turns. A turn is a whole unit of work (messages up to
 * Sync or a simple Query), never a single message: interleaving one client's Parse/Bind with another's breaks
 * the extended protocol. While a client holds an open transaction, only that client runs, so transactions stay
 * atomic. (@electric-sql/pglite-socket's multiplexer interleaves single messages and failed under BullMQ with
 * "bind message supplies 15 parameters, but prepared statement requires 3".)
 *
 * Notifications come out of the shared session in whichever client's turn commits the NOTIFY, so they are
 * taken out of that client's stream and sent to the clients that LISTEN on the channel instead (BullMQ's
 * PostgreSQL backend wakes its workers this way; without it jobs wait for the next poll).
 */
export class EmbeddedPostgres {
  private readonly waiting: Batch[] = [];
  private readonly connections = new Set<Connection>();
  private transactionOwner: Connection | null = null;
  private running = false;

  private constructor(
    private readonly db: PGlite,
    private readonly server: Server,
    readonly url: string,
  ) {}

  /**
   * dataDir 'memory://' keeps everything in memory (tests). `from` is a snapshot taken by `snapshot()`: the
   * database starts as it was then (tests start from one migrated database instead of migrating each time).
   */
  static async start(dataDir: string, from?: Blob): Promise<EmbeddedPostgres> {
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create({ dataDir, loadDataDir: from });
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as { port: number };
    const embedded = new EmbeddedPostgres(db, server, `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
    server.on('connection', (socket) => embedded.accept(socket));
    return embedded;
  }

  /** The whole database as an uncompressed tarball, for `start(dataDir, from)`. */
  async snapshot(): Promise<Blob> {
    return this.db.dumpDataDir('none');
  }

  async stop(): Promise<void> {
    for (const conn of this.connections) conn.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.db.close();
  }

  private accept(socket: Socket): void {
    const conn: Connection = {
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      pending: [],
      channels: new Set(),
    };
    this.connections.add(conn);
    socket.setNoDelay(true);
    socket.on('data', (data) => this.receive(conn, data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void this.release(conn));
  }

  private receive(conn: Connection, data: Buffer): void {
    conn.buffer = Buffer.concat([conn.buffer, data]);
    for (;;) {
      if (!conn.started) {
        if (conn.buffer.length < 8) return;
        const length = conn.buffer.readInt32BE(0);
        if (conn.buffer.length < length) return;
        const code = conn.buffer.readInt32BE(4);
        const message = conn.buffer.subarray(0, length);
        conn.buffer = conn.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) conn.socket.write('N');
        else if (code === CANCEL_REQUEST) conn.socket.destroy();
        else if (code === PROTOCOL_3) {
          conn.started = true;
          this.enqueue(conn, message);
        } else conn.socket.destroy();
        continue;
      }
      if (conn.buffer.length < 5) return;
      const length = 1 + conn.buffer.readInt32BE(1);
      if (conn.buffer.length < length) return;
      const type = String.fromCharCode(conn.buffer[0]);
      const message = conn.buffer.subarray(0, length);
      conn.buffer = conn.buffer.subarray(length);
      if (type === 'X') {
        conn.socket.end();
        return;
      }
      const sql = statementText(message);
      if (sql !== null && /listen/i.test(sql)) trackListens(sql, conn.channels);
      conn.pending.push(message);
      if (BATCH_END.has(type)) {
        this.enqueue(conn, Buffer.concat(conn.pending));
        conn.pending = [];
      }
    }
  }

  private enqueue(conn: Connection, bytes: Uint8Array): void {
    this.waiting.push({ conn, bytes });
    void this.drain();
  }

  /** Runs waiting batches one at a time; an open transaction's owner goes first and alone. */
  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.transactionOwner ? this.waiting.findIndex((b) => b.conn === this.transactionOwner) : 0;
        if (index < 0 || this.waiting.length === 0) return;
        const [batch] = this.waiting.splice(index, 1);
        let carry: Buffer = Buffer.alloc(0);
        await this.db.execProtocolRawStream(batch.bytes, {
          onRawData: (chunk) => {
            carry = this.forward(batch.conn, Buffer.concat([carry, chunk]));
          },
        });
        this.transactionOwner = this.db.isInTransaction() ? batch.conn : null;
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Writes the complete backend messages in `data` to `conn`, except notifications, which go to their
   * listeners. Returns the incomplete tail, to be completed by the next chunk.
   */
  private forward(conn: Connection, data: Buffer): Buffer {
    const passThrough: Buffer[] = [];
    let start = 0;
    let offset = 0;
    while (data.length - offset >= 5) {
      const length = 1 + data.readInt32BE(offset + 1);
      if (data.length - offset < length) break;
      if (data[offset] === NOTIFICATION_RESPONSE) {
        passThrough.push(data.subarray(start, offset));
        this.notify(data.subarray(offset, offset + length));
        start = offset + length;
      }
      offset += length;
    }
    passThrough.push(data.subarray(start, offset));
    const out = Buffer.concat(passThrough);
    if (out.length > 0 && !conn.socket.destroyed) conn.socket.write(out);
    return data.subarray(offset);
  }

  private notify(message: Buffer): void {
    const channelStart = 9; // type, length, sender pid
    const channel = message.toString('utf8', channelStart, message.indexOf(0, channelStart));
    for (const listener of this.connections) {
      if (listener.channels.has(channel) && !listener.socket.destroyed) listener.socket.write(message);
    }
  }

  /** A client that leaves mid-transaction must not leave the one session inside its transaction. */
  private async release(conn: Connection): Promise<void> {
    this.connections.delete(conn);
    for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i].conn === conn) this.waiting.splice(i, 1);
    if (this.transactionOwner === conn) {
      while (this.running) await new Promise((resolve) => setTimeout(resolve, 5));
      if (this.transactionOwner === conn) {
        await this.db.exec('ROLLBACK');
        this.transactionOwner = null;
      }
    }
    void this.drain();
  }
}
