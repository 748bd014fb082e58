// Undo and redo of a job's corrections: the whole set of corrections before each step the
// person took, kept in this tab (sessionStorage, so a reload keeps them). The server merges
// what POST sends, so a step is taken back by sending the set before it with PUT.

const storageKey = (id) => `gridsight-steps:${id}`;

function load(id) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(storageKey(id)) || "null");
    if (Array.isArray(kept?.past) && Array.isArray(kept?.future)) return kept;
  } catch {
    // A broken entry is no history.
  }
  return { past: [], future: [] };
}

function save(id, steps) {
  try {
    sessionStorage.setItem(storageKey(id), JSON.stringify(steps));
  } catch {
    // Storage full or refused: the steps last as long as the page.
  }
}

// A set of corrections with nothing in it is the reading as read.
export const isEmpty = (corrections) =>
  !Object.values(corrections || {}).some((fixes) => fixes?.length);

export function correctionSteps(id) {
  let steps = load(id);
  return {
    id,
    // The job is deleted: its steps go too.
    forget() {
      steps = { past: [], future: [] };
      try {
        sessionStorage.removeItem(storageKey(id));
      } catch {
        // Storage refused: nothing was kept.
      }
    },
    canUndo: () => steps.past.length > 0,
    canRedo: () => steps.future.length > 0,
    // How many steps led from the original reading to the corrections in force.
    count: () => steps.past.length,
    // The person changed the corrections from `before` (by correcting or resetting).
    took(before) {
      steps = { past: [...steps.past, isEmpty(before) ? null : before], future: [] };
      save(id, steps);
    },
    // The set to go back to, and, once the server took it, the step done.
    undoTarget: () => steps.past.at(-1),
    undone(current) {
      steps = { past: steps.past.slice(0, -1),
                future: [...steps.future, isEmpty(current) ? null : current] };
      save(id, steps);
    },
    redoTarget: () => steps.future.at(-1),
    redone(current) {
      steps = { past: [...steps.past, isEmpty(current) ? null : current],
                future: steps.future.slice(0, -1) };
      save(id, steps);
    },
  };
}
