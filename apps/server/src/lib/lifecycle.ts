/**
 * One small state-machine helper for every lifecycle (issue 30), in the shape of chat-states.ts and
 * refund-states.ts: the states, the moves (from, to, who may make it, an optional guard, the named
 * effects it carries out) and which states are final. A move not in the table is refused; a guard
 * refuses a listed move with a sentence a person can act on. Defining a lifecycle checks it: every
 * state is known, and every state that is not final has an exit (a way to a final state), so nothing
 * can be stuck for ever. A state a row may rest in for good while it still has moves (a chat with no
 * deal running) is a `rest`: it needs no exit, and the other states may reach it instead of a final one.
 * A move may name the event that asks for it (`on`), where two events share a from and a to (a buyer
 * who negotiates or cancels a proposed price): `onEvent` then finds the move by its event.
 */
export type LifecycleMove<S extends string, A extends string, E extends string, F> = {
  /** null: the row is created in `to`. */
  from: S | null;
  to: S;
  by: readonly A[];
  /** What the move does besides changing the state, by name; carried out in the move's transaction. */
  effects: readonly E[];
  /** Why the move is refused now (a 409 with this sentence), or null when it may happen. */
  guard?: (facts: F) => string | null;
  /** The event that asks for this move, when the table is moved by events. */
  on?: string;
  /** Why the move exists, for people reading the table. */
  note?: string;
};

export type Lifecycle<S extends string, A extends string, E extends string, F> = {
  readonly name: string;
  readonly states: readonly S[];
  readonly finals: readonly S[];
  readonly rests: readonly S[];
  readonly moves: readonly LifecycleMove<S, A, E, F>[];
  /**
   * The move event `on` asks for from `from`, made by `actor`; or why not: 'state' when no move from
   * here answers that event, 'role' when one does but `actor` may not make it.
   */
  onEvent(from: S | null, on: string, actor: A): LifecycleMove<S, A, E, F> | { refused: 'role' | 'state' };
  /** The move from `from` to `to` by `actor`, or undefined when the table has none. */
  find(from: S | null, to: S, actor: A): LifecycleMove<S, A, E, F> | undefined;
  /** Whether the table lists the move (its guard aside). */
  can(from: S | null, to: S, actor: A): boolean;
  /**
   * Why the move may not happen now: `notListed` when the table has no such move, else the guard's
   * sentence, or null when it may happen.
   */
  refusal(from: S | null, to: S, actor: A, facts: F): 'notListed' | string | null;
  /** The states a state may move to, by anyone. */
  exitsOf(from: S): S[];
};

export function defineLifecycle<S extends string, A extends string, E extends string, F = undefined>(spec: {
  name: string;
  states: readonly S[];
  finals: readonly S[];
  rests?: readonly S[];
  moves: readonly LifecycleMove<S, A, E, F>[];
}): Lifecycle<S, A, E, F> {
  const rests = spec.rests ?? [];
  const known = new Set<string>(spec.states);
  for (const m of spec.moves) {
    if (m.from !== null && !known.has(m.from)) throw new Error(`${spec.name}: unknown state ${m.from}`);
    if (!known.has(m.to)) throw new Error(`${spec.name}: unknown state ${m.to}`);
    if (m.by.length === 0) throw new Error(`${spec.name}: ${m.from}→${m.to} names nobody who may make it`);
  }
  for (const r of rests) if (!known.has(r)) throw new Error(`${spec.name}: unknown state ${r}`);
  // Every state that is not final reaches a final state or a rest: its exits.
  const finals = new Set<string>(spec.finals);
  const reaches = new Set<string>([...finals, ...rests]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of spec.moves) {
      if (m.from !== null && !reaches.has(m.from) && reaches.has(m.to)) {
        reaches.add(m.from);
        changed = true;
      }
    }
  }
  const stuck = spec.states.filter((s) => !reaches.has(s));
  if (stuck.length) throw new Error(`${spec.name}: no exit from ${stuck.join(', ')}`);
  for (const m of spec.moves) if (m.from !== null && finals.has(m.from)) throw new Error(`${spec.name}: the final state ${m.from} has a move`);

  const find = (from: S | null, to: S, actor: A) => spec.moves.find((m) => m.from === from && m.to === to && m.by.includes(actor));
  return {
    ...spec,
    rests,
    find,
    onEvent(from, on, actor) {
      const answering = spec.moves.filter((m) => m.from === from && m.on === on);
      if (!answering.length) return { refused: 'state' };
      return answering.find((m) => m.by.includes(actor)) ?? { refused: 'role' };
    },
    can: (from, to, actor) => find(from, to, actor) !== undefined,
    refusal(from, to, actor, facts) {
      const move = find(from, to, actor);
      if (!move) return 'notListed';
      return move.guard?.(facts) ?? null;
    },
    exitsOf: (from) => [...new Set(spec.moves.filter((m) => m.from === from).map((m) => m.to))],
  };
}

/**
 * Asks the lifecycle every (from, to, actor) there is and answers the moves it allows, as
 * `from>to:actor` (a creation as `new>to:actor`), sorted: the test beside each table compares them with
 * its own written list, so every listed move is walked and every other one is seen refused.
 */
export function allowedMoves<S extends string, A extends string, E extends string, F>(lifecycle: Lifecycle<S, A, E, F>, actors: readonly A[]): string[] {
  const allowed: string[] = [];
  for (const from of [null, ...lifecycle.states])
    for (const to of lifecycle.states) for (const actor of actors) if (lifecycle.can(from, to, actor)) allowed.push(`${from ?? 'new'}>${to}:${actor}`);
  return allowed.sort();
}
