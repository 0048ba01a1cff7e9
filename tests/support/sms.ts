import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';

export interface Sms {
  /** The system id the sender bound with. */
  systemId: string;
  source: string;
  sourceTon: number;
  destination: string;
  destinationTon: number;
  text: string;
}

/**
 * What the centre does with a message: accept it, refuse it (ESME_RSYSERR), or never answer.
 * Binds with another system id or password are always refused.
 */
export type CentreMode = 'accept' | 'refuse' | 'silent';

export interface SmsCentre {
  port: number;
  /** The SMPP_URL that reaches this centre. */
  url: string;
  messages: Sms[];
  /** How many binds the centre accepted. */
  binds: () => number;
  mode: CentreMode;
  /** Closes every session from the centre's side (as a centre's idle timeout does) and waits until they are gone. */
  dropSessions(): Promise<void>;
  close(): Promise<void>;
}

const SYSTEM_ID = 'acredita';
const PASSWORD = 'sms#2026';

/** A real SMPP server (an operator's SMS centre) for the test: the product binds and submits its codes here. */
export async function startSmsCentre(): Promise<SmsCentre> {
  const messages: Sms[] = [];
  let binds = 0;
  const server = smpp.createServer({}, (session: Session) => {
    let systemId = '';
    session.on('error', () => {
      // A sender that goes away mid-message: nothing to do.
    });
    session.on('bind_transmitter', (pdu: PDU) => {
      if (pdu.system_id !== SYSTEM_ID || pdu.password !== PASSWORD) {
        session.send(pdu.response({ command_status: smpp.errors.ESME_RBINDFAIL }));
        return;
      }
      systemId = String(pdu.system_id);
      binds++;
      session.send(pdu.response({ system_id: 'CENTRO' }));
    });
    session.on('submit_sm', (pdu: PDU) => {
      if (!systemId) {
        session.send(pdu.response({ command_status: smpp.errors.ESME_RINVBNDSTS }));
        return;
      }
      if (centre.mode === 'silent') return;
      if (centre.mode === 'refuse') {
        session.send(pdu.response({ command_status: smpp.errors.ESME_RSYSERR }));
        return;
      }
      const body = (pdu.short_message ?? {}) as { message?: string };
      const payload = (pdu.message_payload ?? {}) as { message?: string };
      messages.push({
        systemId,
        source: String(pdu.source_addr),
        sourceTon: Number(pdu.source_addr_ton),
        destination: String(pdu.destination_addr),
        destinationTon: Number(pdu.dest_addr_ton),
        text: body.message || payload.message || '',
      });
      session.send(pdu.response({ message_id: `M${messages.length}` }));
    });
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const gone = async () => {
    const sessions = [...server.sessions];
    await Promise.all(
      sessions.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.socket.destroyed) resolve();
            else s.destroy(() => resolve());
          }),
      ),
    );
  };
  const centre: SmsCentre = {
    port,
    url: `smpp://${SYSTEM_ID}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`,
    messages,
    binds: () => binds,
    mode: 'accept',
    dropSessions: gone,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await gone();
      await closed;
    },
  };
  return centre;
}

/** The last SMS sent to a number, once it arrives. */
export async function smsTo(centre: SmsCentre, destination: string, after = 0): Promise<Sms> {
  for (let i = 0; i < 100; i++) {
    const sms = centre.messages.slice(after).findLast((m) => m.destination === destination);
    if (sms) return sms;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS to ${destination}`);
}
