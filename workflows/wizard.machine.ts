import { assign, setup } from 'xstate';

/** The request wizard's steps (spec section 2): general data, personal data, requirements, additional data, finalise. */
export const WIZARD_STEPS = ['general', 'personal', 'requirements', 'additional', 'finalise'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export interface WizardContext {
  /** new: a request being made; edit: one that exists and may be changed; read: one that may only be read. */
  mode: 'new' | 'edit' | 'read';
  /** The furthest step reached: on a new record, steps up to it may be opened, none beyond. */
  reached: number;
  /** The last Next found the step invalid (the console shows its toast for 3 s). */
  invalid: boolean;
}

export type WizardEvent =
  /** Next, with the current step's validity (the form checks it first). */
  | { type: 'NEXT'; valid: boolean }
  | { type: 'BACK' }
  /** A tab chosen directly. */
  | { type: 'GOTO'; step: WizardStep }
  /** The last step's button: Finalise in edit mode, Return otherwise. */
  | { type: 'FINISH' };

const index = (step: WizardStep) => WIZARD_STEPS.indexOf(step);

/**
 * The request wizard (spec sections 2 and 4): one step at a time; Next validates the current
 * step first and stays with an error when it is invalid; Back is disabled on the first step; on a
 * new record the tabs cannot be jumped ahead of the furthest step reached; the last step's button
 * finalises (edit mode: saves and returns to the list) or returns home (new or read mode).
 */
export const wizardMachine = setup({
  types: {
    context: {} as WizardContext,
    events: {} as WizardEvent,
    input: {} as { mode: WizardContext['mode'] },
    output: {} as { action: 'save' | 'home' },
  },
  guards: {
    valid: ({ event }) => event.type === 'NEXT' && event.valid,
    reachable: ({ context, event }, params: { step: WizardStep }) =>
      event.type === 'GOTO' &&
      event.step === params.step &&
      (context.mode !== 'new' || index(params.step) <= context.reached),
  },
  actions: {
    advance: assign({
      invalid: false,
      reached: ({ context }, params: { to: WizardStep }) => Math.max(context.reached, index(params.to)),
    }),
    clear: assign({ invalid: false }),
    refuse: assign({ invalid: true }),
  },
}).createMachine({
  id: 'wizard',
  context: ({ input }) => ({
    mode: input.mode,
    reached: input.mode === 'new' ? 0 : WIZARD_STEPS.length - 1,
    invalid: false,
  }),
  initial: 'general',
  // A tab is opened directly when the record exists or the step was reached.
  on: {
    GOTO: WIZARD_STEPS.map((step) => ({
      guard: { type: 'reachable' as const, params: { step } },
      target: `.${step}`,
      actions: 'clear' as const,
    })),
  },
  states: {
    general: {
      on: {
        NEXT: [
          { guard: 'valid', target: 'personal', actions: { type: 'advance', params: { to: 'personal' } } },
          { actions: 'refuse' },
        ],
      },
    },
    personal: {
      on: {
        BACK: { target: 'general', actions: 'clear' },
        NEXT: [
          {
            guard: 'valid',
            target: 'requirements',
            actions: { type: 'advance', params: { to: 'requirements' } },
          },
          { actions: 'refuse' },
        ],
      },
    },
    requirements: {
      on: {
        BACK: { target: 'personal', actions: 'clear' },
        NEXT: [
          {
            guard: 'valid',
            target: 'additional',
            actions: { type: 'advance', params: { to: 'additional' } },
          },
          { actions: 'refuse' },
        ],
      },
    },
    additional: {
      on: {
        BACK: { target: 'requirements', actions: 'clear' },
        NEXT: [
          { guard: 'valid', target: 'finalise', actions: { type: 'advance', params: { to: 'finalise' } } },
          { actions: 'refuse' },
        ],
      },
    },
    finalise: {
      on: {
        BACK: { target: 'additional', actions: 'clear' },
        FINISH: 'finished',
      },
    },
    finished: { type: 'final' },
  },
  output: ({ context }) => ({ action: context.mode === 'edit' ? 'save' : 'home' }),
});
