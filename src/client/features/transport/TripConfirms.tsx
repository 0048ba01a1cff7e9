import { Confirm } from 'react-admin';
import type { NoShow, Seat } from './api.js';
import type { Asked as Action } from './TripActions.js';
import type { useTripWork } from './useTripWork.js';

const T = 'transport.screens.trip';

/** What the trip's page asks about: an action of the trip's, or a seat to cancel. */
export type Asked = Action | Seat;

/**
 * The trip's page's questions before what cannot be undone: the departure (whoever has not boarded
 * becomes a no-show, listed by `onNoShows`), cancelling the trip, cancelling a booked seat.
 */
export function TripConfirms({
  asked,
  work,
  waiting,
  onClose,
  onNoShows,
}: {
  asked: Asked | undefined;
  work: ReturnType<typeof useTripWork>;
  /** The seats booked that have not boarded. */
  waiting: number;
  onClose(): void;
  onNoShows(people: NoShow[]): void;
}) {
  const seat = typeof asked === 'object' ? asked : undefined;
  return (
    <>
      <Confirm
        isOpen={asked === 'depart'}
        loading={work.depart.isPending}
        title={`${T}.departTitle`}
        content={`${T}.departText`}
        translateOptions={{ smart_count: waiting }}
        confirm={`${T}.depart`}
        cancel={`${T}.dismiss`}
        onConfirm={() =>
          work.depart.mutate(undefined, {
            onSuccess: (done) => onNoShows(done.noPresentados),
            onSettled: onClose,
          })
        }
        onClose={onClose}
      />
      <Confirm
        isOpen={asked === 'cancel'}
        loading={work.cancel.isPending}
        title={`${T}.cancelTitle`}
        content={`${T}.cancelText`}
        translateOptions={{ smart_count: waiting }}
        confirm={`${T}.cancel`}
        cancel={`${T}.dismiss`}
        confirmColor="warning"
        onConfirm={() => work.cancel.mutate(undefined, { onSettled: onClose })}
        onClose={onClose}
      />
      <Confirm
        isOpen={seat !== undefined}
        loading={work.cancelSeat.isPending}
        title={`${T}.cancelSeatTitle`}
        content={`${T}.cancelSeatText`}
        translateOptions={{ name: seat?.Persona ?? '' }}
        confirm={`${T}.cancelSeat`}
        cancel={`${T}.dismiss`}
        onConfirm={() => seat && work.cancelSeat.mutate(seat, { onSettled: onClose })}
        onClose={onClose}
      />
    </>
  );
}
