import { describe, expect, it } from 'vitest';
import { allowedMoves, defineLifecycle } from './lifecycle';

describe('the lifecycle helper', () => {
  const door = defineLifecycle<'open' | 'ajar' | 'shut', 'guest' | 'host', 'log', { locked: boolean }>({
    name: 'door',
    states: ['open', 'ajar', 'shut'],
    finals: ['shut'],
    moves: [
      { from: null, to: 'open', by: ['host'], effects: [] },
      { from: 'open', to: 'ajar', by: ['guest', 'host'], effects: ['log'] },
      { from: 'ajar', to: 'shut', by: ['host'], effects: ['log'], guard: (f) => (f.locked ? 'The door is locked.' : null) },
      { from: 'open', to: 'shut', by: ['host'], effects: [] },
    ],
  });

  it('allows the listed moves only, and a guard refuses with its sentence', () => {
    expect(allowedMoves(door, ['guest', 'host'])).toEqual(['ajar>shut:host', 'new>open:host', 'open>ajar:guest', 'open>ajar:host', 'open>shut:host']);
    expect(door.refusal('ajar', 'shut', 'host', { locked: true })).toBe('The door is locked.');
    expect(door.refusal('ajar', 'shut', 'host', { locked: false })).toBeNull();
    expect(door.refusal('ajar', 'shut', 'guest', { locked: false })).toBe('notListed');
  });

  it('refuses a table with a state that has no exit, an unknown state, or a move out of a final state', () => {
    expect(() =>
      defineLifecycle({ name: 'trap', states: ['in', 'stuck', 'out'], finals: ['out'], moves: [{ from: 'in', to: 'stuck', by: ['x'], effects: [] }] }),
    ).toThrow('trap: no exit from in, stuck');
    expect(() => defineLifecycle({ name: 'typo', states: ['a', 'b'], finals: ['b'], moves: [{ from: 'a', to: 'c' as 'b', by: ['x'], effects: [] }] })).toThrow(
      'typo: unknown state c',
    );
    expect(() =>
      defineLifecycle({
        name: 'undead',
        states: ['a', 'b'],
        finals: ['b'],
        moves: [
          { from: 'a', to: 'b', by: ['x'], effects: [] },
          { from: 'b', to: 'a', by: ['x'], effects: [] },
        ],
      }),
    ).toThrow('undead: the final state b has a move');
  });

  it('a rest may keep its moves and stands for an exit; an event finds its move, or says whether the role or the state refuses', () => {
    const chat = defineLifecycle<'idle' | 'asked', 'a' | 'b', 'ring'>({
      name: 'chat',
      states: ['idle', 'asked'],
      finals: [],
      rests: ['idle'],
      moves: [
        { from: 'idle', to: 'asked', by: ['a'], on: 'ask', effects: ['ring'] },
        { from: 'asked', to: 'idle', by: ['b'], on: 'answer', effects: ['ring'] },
        { from: 'asked', to: 'idle', by: ['a', 'b'], on: 'cancel', effects: [] },
      ],
    });
    expect(chat.onEvent('asked', 'answer', 'b')).toMatchObject({ to: 'idle', on: 'answer' });
    expect(chat.onEvent('asked', 'answer', 'a')).toEqual({ refused: 'role' });
    expect(chat.onEvent('idle', 'answer', 'b')).toEqual({ refused: 'state' });
    expect(chat.onEvent('asked', 'cancel', 'a')).toMatchObject({ to: 'idle', on: 'cancel' });
    // Without the rest, 'idle' and 'asked' would have no way out.
    expect(() => defineLifecycle({ name: 'loop', states: ['idle', 'asked'], finals: [], moves: chat.moves })).toThrow('loop: no exit from idle, asked');
  });
});
