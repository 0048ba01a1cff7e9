import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { wizardMachine } from './wizard.machine.js';

const start = (mode: 'new' | 'edit' | 'read') => createActor(wizardMachine, { input: { mode } }).start();

describe('request wizard machine', () => {
  it('moves one step at a time; Next validates first and stays with an error when invalid', () => {
    const actor = start('new');
    actor.send({ type: 'NEXT', valid: false });
    expect(actor.getSnapshot().value).toBe('general');
    expect(actor.getSnapshot().context.invalid).toBe(true);
    actor.send({ type: 'NEXT', valid: true });
    expect(actor.getSnapshot().value).toBe('personal');
    expect(actor.getSnapshot().context.invalid).toBe(false);
    for (const step of ['requirements', 'additional', 'finalise']) {
      actor.send({ type: 'NEXT', valid: true });
      expect(actor.getSnapshot().value).toBe(step);
    }
  });

  it('disables Back on the first step and goes back one step elsewhere', () => {
    const actor = start('new');
    expect(actor.getSnapshot().can({ type: 'BACK' })).toBe(false);
    actor.send({ type: 'NEXT', valid: true });
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('general');
  });

  it('opens on a new record only the steps already reached; any step when editing', () => {
    const actor = start('new');
    expect(actor.getSnapshot().can({ type: 'GOTO', step: 'requirements' })).toBe(false);
    actor.send({ type: 'NEXT', valid: true });
    actor.send({ type: 'NEXT', valid: true });
    actor.send({ type: 'GOTO', step: 'general' });
    expect(actor.getSnapshot().value).toBe('general');
    actor.send({ type: 'GOTO', step: 'requirements' });
    expect(actor.getSnapshot().value).toBe('requirements');
    expect(actor.getSnapshot().can({ type: 'GOTO', step: 'finalise' })).toBe(false);
    const edit = start('edit');
    edit.send({ type: 'GOTO', step: 'finalise' });
    expect(edit.getSnapshot().value).toBe('finalise');
  });

  it('finishes on the last step: saving in edit mode, returning home otherwise', () => {
    const actor = start('new');
    expect(actor.getSnapshot().can({ type: 'FINISH' })).toBe(false);
    for (let i = 0; i < 4; i++) actor.send({ type: 'NEXT', valid: true });
    actor.send({ type: 'FINISH' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ action: 'home' });
    const edit = start('edit');
    edit.send({ type: 'GOTO', step: 'finalise' });
    edit.send({ type: 'FINISH' });
    expect(edit.getSnapshot().output).toEqual({ action: 'save' });
  });

  it('opens any step of a request only read, and returns home from its last step', () => {
    const read = start('read');
    expect(read.getSnapshot().can({ type: 'GOTO', step: 'finalise' })).toBe(true);
    read.send({ type: 'GOTO', step: 'finalise' });
    read.send({ type: 'FINISH' });
    expect(read.getSnapshot().output).toEqual({ action: 'home' });
  });
});
