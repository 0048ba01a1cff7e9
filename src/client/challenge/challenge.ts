import type { WidgetMethods } from 'altcha/types';
import { ApiRequestError } from '../session/http.js';

/**
 * The answer the sign-in calls carry (tokenClient): a proof of work for a challenge of
 * GET /api/auth/challenge, found by the ALTCHA widget on the page while the person types. Each
 * answer is spent by one call; the next one is prepared once that call is answered. When the server
 * asks for more work (failures of this address or name: code 07), a harder challenge for the name
 * is solved and the call is made once more.
 */
type Widget = HTMLElement & WidgetMethods;

const CHALLENGE_URL = '/api/auth/challenge';

let widget: Widget | undefined;
let enabled: Promise<boolean> | undefined;
let ready: Promise<string> | undefined;

async function fetchChallenge(username?: string): Promise<Record<string, unknown>> {
  const query = username ? `?usuario=${encodeURIComponent(username)}` : '';
  const response = await fetch(`${CHALLENGE_URL}${query}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`challenge ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Whether the server asks for the challenge (SIGN_IN_CHALLENGE may turn it off). */
export function challengeEnabled(): Promise<boolean> {
  enabled ??= fetchChallenge()
    .then((answer) => answer.enabled !== false)
    .catch(() => {
      enabled = undefined;
      return true;
    });
  return enabled;
}

/** The widget's methods arrive once its component has started, a moment after it is on the page. */
async function started(element: Widget): Promise<Widget> {
  await customElements.whenDefined('altcha-widget');
  for (let frame = 0; typeof element.verify !== 'function'; frame++) {
    if (frame > 600) throw new Error('the challenge widget did not start');
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return element;
}

/** The widget's solves, one after another: a second solve resets the widget under the first. */
let solving: Promise<unknown> = Promise.resolve();

/** Solves a challenge in the page's widget (which shows and announces its progress). */
function solve(username?: string): Promise<string> {
  const run = solving.then(
    () => solveNow(username),
    () => solveNow(username),
  );
  solving = run.catch(() => {});
  return run;
}

async function solveNow(username?: string): Promise<string> {
  if (!widget) throw new Error('no challenge widget on the page');
  const current = await started(widget);
  current.reset();
  await current.configure({ challenge: (await fetchChallenge(username)) as never });
  const result = await current.verify();
  if (!result?.payload) throw new Error('the challenge was not solved');
  return result.payload;
}

/** The widget that shows on this step; it starts on the next answer at once. */
export function attachWidget(element: Widget | null): void {
  if (element === widget) return;
  widget = element ?? undefined;
  ready = undefined;
  if (widget) prepare();
}

function prepare(): void {
  ready = solve();
  // A failed preparation is retried when an answer is asked for.
  ready.catch(() => {});
}

/** An answer for the next call ('' when the server does not ask for one). */
async function takeToken(): Promise<string> {
  if (!(await challengeEnabled())) return '';
  const prepared = ready;
  ready = undefined;
  // A preparation that failed (the widget went, the server did not answer) is tried once more.
  return prepared ? prepared.catch(() => solve()) : solve();
}

const needsMoreWork = (error: unknown) =>
  error instanceof ApiRequestError &&
  error.params?.codigo === '07' &&
  (error.body as { messageKey?: string } | undefined)?.messageKey === 'login.messages.challenge';

/**
 * Makes a guarded call with an answer; when the answer was too easy for this name (or spent,
 * expired), solves a challenge issued for the name and calls once more. The next answer is
 * prepared once the call has been answered, so that its challenge counts the failure this call
 * may have earned.
 */
export async function withChallenge<T>(
  username: string,
  call: (tokenClient: string) => Promise<T>,
): Promise<T> {
  try {
    return await call(await takeToken());
  } catch (error) {
    if (!needsMoreWork(error) || !widget) throw error;
    return await call(await solve(username));
  } finally {
    if (widget) prepare();
  }
}
