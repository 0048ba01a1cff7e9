/** The part of the `smpp` package (0.5) the product and its tests use; the package has no types of its own. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A protocol data unit: its header, and its parameters by name (system_id, destination_addr…). */
  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    [param: string]: unknown;
  }

  type Respond = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: Respond, sendCallback?: Respond): boolean;
    bind_transmitter(options: Record<string, unknown>, responseCallback?: Respond): boolean;
    submit_sm(options: Record<string, unknown>, responseCallback?: Respond): boolean;
    unbind(responseCallback?: Respond): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    host: string;
    port: number;
    tls?: boolean;
    servername?: string;
  }

  export interface Encoding {
    match(text: string): boolean;
    encode(text: string): Buffer;
    decode(bytes: Buffer): string;
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(
    options: Record<string, unknown>,
    listener?: (session: Session) => void,
  ): Server;

  /** GSM 03.38 (named ASCII), LATIN1 and UCS2, and `detect`: the first of them that can carry a text. */
  export const encodings: Record<'ASCII' | 'LATIN1' | 'UCS2', Encoding> & {
    detect(text: string): 'ASCII' | 'LATIN1' | 'UCS2';
  };
  /** data_coding values by encoding name. */
  export const ENCODING: Record<string, number>;
  export const TON: Record<'UNKNOWN' | 'INTERNATIONAL' | 'NATIONAL' | 'ALPHANUMERIC', number>;
  export const NPI: Record<'UNKNOWN' | 'ISDN', number>;
  /** command_status values by name (ESME_ROK, ESME_RINVDSTADR…). */
  export const errors: Record<string, number>;

  const smpp: {
    connect: typeof connect;
    createServer: typeof createServer;
    encodings: typeof encodings;
    ENCODING: typeof ENCODING;
    TON: typeof TON;
    NPI: typeof NPI;
    errors: typeof errors;
  };
  export default smpp;
}
