"""solve_reading: the most probable reading of a grid that makes a solvable puzzle.

A Reading gives, for every cell, probabilities over blank and 1..n; for killer sudoku
also candidate cage sums and probabilities of the walls between cells. The repair
looks for the reading with the largest total log-probability whose puzzle has a
solution, preferring one whose solution is unique:

1. The argmax reading is solved first; when it is unique nothing else runs.
2. Otherwise one CP-SAT model holds both the reading and the solution: each cell
   chooses one read value (weighted by its log-probability), a digit read forces that
   digit in the solution, and each cage chooses one digit set whose sum is one of its
   sum candidates (weighted likewise). Minimising the log-probability lost gives the
   most probable solvable reading. The cage sums must add up to the grid's total (405
   for 9x9), so a sum not read at all follows from the others. For killer grids the
   model is first built from the likelier readings only, and as a last resort a sum may
   take a value none of its candidates has, a doubtful sum before any (KILLER_STAGES).
   Before each killer stage's search, the cage sizes and the 45 rule of every region
   prune the sums' values (cage_sums.py). A stage with no unread values first keeps
   the cells as read and tries the sum choices the 45 rule allows, likeliest first,
   each as a killer with known sums (sum_order.py), while they cost less than changing
   a cell would; past that, its model gets the region totals. Choices left untried when
   its time runs out go on in the next such stage, with all the time left (the stages
   with unread values would not finish either). A killer whose search cannot settle in
   time goes to a person with the sums the pruning leaves deciding as suspects.
3. If that reading has several solutions S1, S2, a cut asks the next reading to
   contradict S1 or S2 somewhere, and the model is solved again (the sum choices: the
   next one is tried), while the reading stays within UNIQUE_SEARCH_LOSS of the best
   solvable one.

Killer walls: cages are the connected regions of walls with p >= 0.5. When those regions
do not each hold exactly one cage sum, or the best reading on them has no solution, the
least confident walls are flipped, one or two at a time, or several at once where wrong
cages lie apart (layouts.py), and wall layouts are tried in order of probability. Once
one layout gives a unique answer, the others get EXTRA_LAYOUT_SECONDS more. Walls are not
part of the CP-SAT model.

Time: the killer repair's budget (KILLER_SETTLE_SECONDS) counts the CPU time of the
working thread and CP-SAT's deterministic time, with the time limit as a wall-clock cap
(budget.py), so that the same reading gets the same answer however busy the machine is.

Readings with probability below PRUNE_PROB are never chosen.

Corrections follow one rule. What a person typed is certain. Once a person has typed
anything, readings at least CONFIDENT_PROB likely are no longer repaired either: the
solver never rewrites a confident reading to make room for a correction. A typed digit
that clashes with a confident digit in its row, column or box ends as needs_review with
the clash in words and the confident reading as a suspect; so does any reading that no
repair can make solvable (a person can still correct it).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from ortools.sat.python import cp_model

from services.contracts import (
    REVIEW_BOX,
    Reading,
    SolveResult,
)
from services.solver.box_guess import settled_by_digits
from services.solver.budget import Budget
from services.solver.cage_sums import (
    add_region_totals,
    cached_rules,
    prune_sums,
    settled_candidates,
)
from services.solver.cages import reachable
from services.solver.errors import PuzzleError
from services.solver.grid import Geometry, check_shape, geometry
from services.solver.layouts import Wall, cage_layouts
from services.solver.nonogram_repair import solve_nonogram_reading
from services.solver.read_options import (
    Options,
    Outcome,
    cell_options,
    log_prob,
    normalise_fixed,
    option_cost,
    sum_options,
)
from services.solver.review import (
    DOUBTFUL_SUM,
    build_result,
    clash_result,
    typed_clashes,
    unsettled_killer,
)
from services.solver.sudoku import (
    GridAnswer,
    OneHotModel,
    quick_parameters,
    solve_grid,
    solver_parameters,
)
from services.solver.sum_order import settle_by_sums, tied_values

EVERY_SUM = 2.0  # as a stage's doubt limit: every sum may take an unread value
# Killer repair stages: (readings at least this likely, a sum whose top candidate is less
# likely than this may take a value none of its candidates has, the share of the CPU time
# left the stage may use). Unread values for the doubtful sums alone come first: a misread
# sum is nearly always one of them, and that search is far smaller than one where every
# sum may take any value. The every-sum search can need 0.6 s of CPU to settle a reading
# (a held-out textured one), more than half of what is left; the stages after it, with
# readings below 0.001, settled none of 480 held-out pictures. So it gets all the time
# left, and they only what it leaves unused. A stage that ends early passes its time on
# (each share is of what is left).
KILLER_STAGES = ((0.01, 0.0, 0.5), (0.001, 0.0, 0.5), (0.001, DOUBTFUL_SUM, 0.5),
                 (0.001, EVERY_SUM, 1.0), (0.0, 0.0, 0.5), (0.0, EVERY_SUM, 1.0))
UNIQUE_SEARCH_LOSS = math.log(100)  # how much less likely a unique reading may be
MAX_UNIQUE_TRIES = 8
# CPU seconds for other wall layouts once one gives a unique answer. More than the settle
# budget (it was 1.5 s) never limited anything, and one held-out reading, settled at
# 0.02 s, spent 0.8 s of CPU on layouts that changed nothing; none of 420 held-out
# readings changed its answer with 0.1 s.
EXTRA_LAYOUT_SECONDS = 0.2
# A killer reading the repair cannot settle within this time is handed to a person
# (needs_review, its doubtful sums as suspects) instead of spending the whole time limit.
# Readings that settle took at most 0.06 s of CPU (78 killers of 14 styles); with a
# screenshot read in 0.5-0.7 s, a second here put the unsettled ones (7 % of pictures in
# progress) over the 1.5 s an answer may take. CPU seconds of the working thread, not
# wall-clock ones: the same reading settles or not whatever the load (budget.py).
KILLER_SETTLE_SECONDS = 0.8
UNLISTED_SUM_PROB = 1e-5  # a cage sum none of the read candidates (the last resort)
CONFIDENT_PROB = 0.9  # after a correction, readings this likely stay as read
# Before any search, each stage's sum values are pruned by the cage sizes and the 45 rule
# (cage_sums.py); off, the search alone rules them out (bench/cage_sums.py compares both).
RULE_OUT_SUMS = True
UNTRIED = "untried"  # a stage's time ran out with sum choices (cells as read) left to try
# A sum with more values about as likely as its likeliest is one not read at all (every
# value 1/45): its values are not tried one by one, the joint model finds it from the
# others (six such sums: 0.1 s, while trying their choices in turn did not settle).
MAX_TIED_VALUES = 8


# --- The repair model ------------------------------------------------------------------


def argmax_log_prob(cells: list[Options], sums: list[Options]) -> float:
    return sum(log_prob(o, o.best) for o in cells + sums)


def narrowed(options: list[Options], floor: float) -> list[Options]:
    """The options without their values less likely than `floor` (the best always stays)."""
    return [replace(o, values=[vp for vp in o.values if vp[1] >= floor] or o.values[:1])
            for o in options]


def repair_grid(geo: Geometry, cells: list[Options], cages: list[list[int]],
                sums: list[Options], budget: Budget) -> Outcome | None | str:
    """The most probable solvable reading on a fixed cage layout, likely readings first.

    For killer cages: many barely possible alternatives (a digit at 1e-4) make the
    search far slower, and the answer rarely needs them. The KILLER_STAGES run in turn,
    each with its share of the budget left, until one gives a unique answer or the budget
    is spent.
    Stages that let a sum take a value none of its candidates has run only while no
    solvable reading has been found.
    """
    if not cages:  # classic sudoku: one search over every reading, as it always was
        return repair_on_layout(geo, cells, cages, sums, budget)
    best: Outcome | None | str = None
    tried = set()
    solved: dict[tuple[int, ...], GridAnswer] = {}  # sums tried with the cells as read
    untried = False  # a stage ran out of time with the read sums' choices still listed
    for floor, doubt, share in KILLER_STAGES:
        if doubt and isinstance(best, Outcome):
            break
        if doubt and untried:
            # A stage with unread values searches the read ones too, without the 45 rule's
            # ranges: it would not finish either. The next stage without them goes on
            # where this one stopped (`solved`), with all the time left.
            continue
        narrow_cells, narrow_sums = narrowed(cells, floor), narrowed(sums, floor)
        size = sum(len(o.values) for o in narrow_cells + narrow_sums)
        free = sum(may_be_unread(o, doubt) for o in narrow_sums)
        if (size, free) in tried:
            continue  # the same options as an earlier stage
        if budget.spent():
            # A wider stage on no time repeats the argmax check and stops at once: it
            # settles nothing, and a reading handed over unsettled waits for it.
            return best if best is not None else "unknown"
        tried.add((size, free))
        if RULE_OUT_SUMS:
            ruled = ruled_out(geo, cages, narrow_sums, doubt)
            found = None if ruled is None else repair_on_layout(
                geo, narrow_cells, cages, ruled, budget.part(1.0 if untried else share),
                region_rule=not doubt, solved=solved)
            if found == UNTRIED:
                untried, found = True, "unknown"
        else:
            found = repair_on_layout(geo, narrow_cells, cages, narrow_sums,
                                     budget.part(share), doubt)
        if isinstance(found, Outcome):
            if found.answer.verdict == "unique":
                return found
            if not isinstance(best, Outcome) or found.log_prob > best.log_prob:
                best = found
        elif best is None:
            best = found
    return best


def ruled_out(geo: Geometry, cages: list[list[int]], sums: list[Options],
              doubt: float) -> list[Options] | None:
    """The sums' values that the cage sizes and the 45 rule leave possible (cage_sums.py);
    a sum `may_be_unread` also keeps any other value they allow, as UNLISTED_SUM_PROB
    likely. None when some sum has none left."""
    n = geo.size
    wide = [[v for v, _ in o.values] + ([s for s in range(1, n * (n + 1) // 2 + 1)
                                          if s not in dict(o.values)]
                                         if may_be_unread(o, doubt) else [])
            for o in sums]
    kept = prune_sums(geo, cages, wide)
    if kept is None:
        return None
    out = []
    for o, values in zip(sums, kept, strict=True):
        read = dict(o.values)
        out.append(replace(o, values=[(v, read.get(v, UNLISTED_SUM_PROB)) for v in values]))
    return out


def may_be_unread(o: Options, doubt: float) -> bool:
    """Whether a stage with this doubt limit lets the sum take a value none of its
    candidates has."""
    return o.values[0][1] < doubt and not (o.fixed or o.locked)


def repair_on_layout(geo: Geometry, cells: list[Options], cages: list[list[int]],
                     sums: list[Options], budget: Budget, doubt: float = 0.0,
                     region_rule: bool = False, solved: dict | None = None
                     ) -> Outcome | None | str:
    """The most probable solvable reading on a fixed cage layout, among `cells` and `sums`;
    a sum whose top candidate is less likely than `doubt` may also take any other value.
    `region_rule` puts the 45 rule of every region in the model (cage_sums.py), with
    clausal cages and quick search settings: far faster on large cages with a few
    candidates per sum, far slower when many sums may take any value (a 9x9 reading with
    every sum free took 5 s instead of 1 s to settle).

    Returns an Outcome, None when no reading within the options is solvable, or "unknown"
    when the budget ran out before anything was found.
    """
    n = geo.size

    def puzzle_answer(values: list[int], totals: list[int]) -> GridAnswer:
        givens = [values[r * n:(r + 1) * n] for r in range(n)]
        cage_list = list(zip(cages, totals, strict=True)) if cages else None
        if cage_list and any(not reachable(n, len(c), t) for c, t in cage_list):
            return GridAnswer("none")
        return solve_grid(geo, givens, cage_list, budget.wall_left(), work=budget.work())

    def score(values: list[int], totals: list[int]) -> float:
        return (sum(log_prob(o, v) for o, v in zip(cells, values, strict=True))
                + sum(log_prob(o, t) for o, t in zip(sums, totals, strict=True)))

    values = [o.best for o in cells]
    solved = {} if solved is None else solved

    def as_read(totals: list[int]) -> GridAnswer:
        """The puzzle with the cells as read, each choice of sums solved once per layout
        (a wider stage tries the narrower one's choices again)."""
        key = tuple(totals)
        if key not in solved:
            answer = puzzle_answer(values, totals)
            if answer.verdict == "unknown":
                return answer  # cut short: no answer to keep
            solved[key] = answer
        return solved[key]

    totals = [o.best for o in sums]
    answer = as_read(totals)
    if answer.verdict in ("unique", "unknown"):
        return Outcome(values, totals, answer, score(values, totals)) if answer.solution \
            else "unknown"
    fallback = Outcome(values, totals, answer, score(values, totals)) \
        if answer.verdict == "multiple" else None
    if region_rule:
        found = repair_sums(geo, cells, cages, sums, budget, fallback,
                            lambda t: score(values, t), as_read)
        if found != "open":
            return found

    cands = [geo.full] * geo.cells
    if RULE_OUT_SUMS and cages:
        cands = settled_candidates(geo, [o.best if len(o.values) == 1 else 0 for o in cells],
                                   cages, [[v for v, _ in o.values] for o in sums])
        if cands is None:
            return fallback
    model = OneHotModel(geo, cands)
    model.clausal_cages = region_rule
    m = model.model
    cost = []
    cell_choice: list[dict[int, cp_model.IntVar]] = []
    for i, o in enumerate(cells):
        if len(o.values) == 1:
            if o.best:
                model.require(model.lit(i, o.best) == 1)
            cell_choice.append({})
            continue
        choice = {v: m.new_bool_var(f"read{i}_{v}") for v, _ in o.values}
        m.add_exactly_one(choice.values())
        for v, p in o.values:
            if v:
                lit = model.lit(i, v)
                if isinstance(lit, int):
                    if not lit:
                        m.add(choice[v] == 0)  # the digit is ruled out there
                else:
                    m.add_implication(choice[v], lit)
            cost.append(option_cost(o, p) * choice[v])
        cell_choice.append(choice)
    sum_choice: list[dict[int, list]] = []
    for cage, o in zip(cages, sums, strict=True):
        costs = {s: option_cost(o, p) for s, p in o.values if reachable(n, len(cage), s)}
        if may_be_unread(o, doubt):
            # The true sum may be none of those read: any other value, at a high cost.
            far = option_cost(o, UNLISTED_SUM_PROB)
            costs |= {s: far for s in range(1, n * (n + 1) // 2 + 1)
                      if s not in costs and reachable(n, len(cage), s)}
        if not costs:
            return fallback
        choice = model.add_cage_choice(cage, costs)
        if choice is None:  # too many digit sets to list (big grids): a sum over a choice
            choice = {s: [m.new_bool_var("")] for s in costs}
            m.add_exactly_one(z for zs in choice.values() for z in zs)
            model.add_cage(cage, sum(s * zs[0] for s, zs in choice.items()))
        for s, zs in choice.items():
            cost += [costs[s] * z for z in zs if costs[s]]
        sum_choice.append(choice)
    if cages and sum(len(cage) for cage in cages) == geo.cells:
        # Redundant but strong: the cages share out every digit n times. With it one
        # unread or doubtful sum follows from the others without search.
        m.add(sum(s * z for ch in sum_choice for s, zs in ch.items() for z in zs)
              == n * n * (n + 1) // 2)
        if region_rule:
            add_region_totals(model, cages, [sum(s * z for s, zs in ch.items() for z in zs)
                                             for ch in sum_choice])
    m.minimize(sum(cost))

    best_score = None
    cut_short = False  # a search stopped by the budget proves nothing
    for _ in range(MAX_UNIQUE_TRIES):
        solver = cp_model.CpSolver()
        solver_parameters(solver, budget.wall_left(), budget.work())
        if region_rule:
            # Presolve and the LP cost more than they save once the 45 rule is in the
            # model: a hard killer's best reading came in 0.1 s with the quick settings,
            # none within 0.4 s with the default ones.
            quick_parameters(solver)
        status = solver.solve(m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            cut_short = status == cp_model.UNKNOWN
            break
        values = [next((v for v, z in ch.items() if solver.value(z)), o.best) if ch else o.best
                  for ch, o in zip(cell_choice, cells, strict=True)]
        totals = [next(s for s, zs in ch.items()
                       if any(isinstance(z, int) or solver.value(z) for z in zs))
                  for ch in sum_choice]
        s = score(values, totals)
        if best_score is None:
            best_score = s
        elif s < best_score - UNIQUE_SEARCH_LOSS:
            break
        answer = puzzle_answer(values, totals)
        if answer.verdict == "unique":
            return Outcome(values, totals, answer, s)
        if answer.verdict != "multiple":
            cut_short = answer.verdict == "unknown"
            break
        if fallback is None or fallback.answer.verdict != "multiple":
            fallback = Outcome(values, totals, answer, s)
        # Cut: the next reading must contradict one of the two solutions somewhere.
        s1, s2 = answer.solution, answer.other
        breaking = [z for i, ch in enumerate(cell_choice) for v, z in ch.items()
                    if v and (v != s1[i // n][i % n] or v != s2[i // n][i % n])]
        for cage, ch in zip(cages, sum_choice, strict=True):
            t1 = sum(s1[i // n][i % n] for i in cage)
            t2 = sum(s2[i // n][i % n] for i in cage)
            breaking += [z for t, zs in ch.items() for z in zs if not isinstance(z, int)
                         and (t != t1 or t != t2)]
        if not breaking:
            break
        m.add_bool_or(breaking)
        if budget.spent():
            break
    if fallback is None and (cut_short or budget.spent()):
        return "unknown"
    return fallback


def repair_sums(geo: Geometry, cells: list[Options], cages: list[list[int]],
                sums: list[Options], budget: Budget, argmax: Outcome | None,
                score, answer_of) -> Outcome | None | str:
    """repair_on_layout with the cells as read: the sum choices the 45 rule allows, tried
    likeliest first (sum_order.py), while they cost less than changing any cell would.
    `argmax`: the argmax reading when it has several solutions.
    Returns "open" when the readings that change a cell must be looked at too, or a sum
    was not read at all; UNTRIED when the budget ran out with choices left to try."""
    costs = [{s: option_cost(o, p) for s, p in o.values} for o in sums]
    if any(len(tied) > MAX_TIED_VALUES for tied in tied_values(costs)):
        return "open"
    cell_change = min((option_cost(o, o.values[1][1]) for o in cells if len(o.values) > 1),
                      default=math.inf)
    found = settle_by_sums(costs, cached_rules(geo, tuple(tuple(c) for c in cages))[0],
                           answer_of, score, budget, UNIQUE_SEARCH_LOSS, MAX_UNIQUE_TRIES,
                           below=cell_change)
    if isinstance(found, str):
        return argmax or UNTRIED
    solvable, settled = found
    if not settled:
        return "open"
    if not solvable:
        return argmax
    last = solvable[-1] if solvable[-1][1].verdict == "unique" else solvable[0]
    return Outcome([o.best for o in cells], last[0], last[1], last[2])


# --- Killer walls as read --------------------------------------------------------------


def read_walls(reading: Reading, fixed: dict, lock: bool = False) -> list[Wall]:
    """The walls, the person's as certain; with `lock`, confident walls are kept too."""
    n = reading.size
    if reading.walls_right is None or reading.walls_down is None:
        raise PuzzleError("a killer reading needs walls_right and walls_down")
    walls = []
    for what, grid, rows, cols in (("wall_right", reading.walls_right, n, n - 1),
                                   ("wall_down", reading.walls_down, n - 1, n)):
        part = "walls_" + what.split("_")[1]
        if len(grid) < rows or any(len(grid[r]) < cols for r in range(rows)):
            raise PuzzleError(f"{part} must be at least {rows}x{cols}")
        confirmed = fixed.get(part, {})
        for r in range(rows):
            for c in range(cols):
                if (r, c) in confirmed:
                    walls.append(Wall(what, r, c, float(bool(confirmed[(r, c)])), True))
                else:
                    p = min(1.0, max(0.0, grid[r][c]))
                    walls.append(Wall(what, r, c, p, lock and max(p, 1 - p) >= CONFIDENT_PROB))
    return walls


# --- The public function -----------------------------------------------------------------


def solve_reading(reading: Reading, time_limit: float = 10.0,
                  fixed: dict | None = None,
                  settle_seconds: float = KILLER_SETTLE_SECONDS) -> SolveResult:
    """Solve what the recognizer read, repairing the least likely readings when needed.

    `fixed` holds readings a person confirmed; they are treated as certain:
    {"cells": {(r, c): digit or 0}, "cage_sums": {(r, c): sum},
     "walls_right": {(r, c): 0 or 1}, "walls_down": {(r, c): 0 or 1}}.
    Keys may also be "r,c" strings, or each part a list of [r, c, value]. A fixed cage sum
    at a cell with no sum reading adds one there.

    Status: "solved" when the repaired reading equals the argmax reading, no reading is in
    doubt and the solution is unique; "needs_review" when a reading was changed (see
    `suspects`), a kept reading's runner-up has probability > UNCERTAIN_RUNNER_UP (see
    `uncertain`) or the solution is not unique; "failed" when no reading worked (see
    `conflicts`). A killer reading that `settle_seconds` of repair (CPU seconds of the
    calling thread) do not settle comes back as "needs_review" with its doubtful cage sums
    as suspects. A box shape the picture only
    guessed (box_confidence < REVIEW_BOX) is reviewed unless the digits settle it
    (box_guess.py).
    """
    if isinstance(reading, dict):
        reading = Reading.model_validate(reading)
    if reading.kind == "nonogram":
        return solve_nonogram_reading(reading, time_limit, fixed)
    result = _solve_reading(reading, time_limit, fixed, settle_seconds)
    result.symbols = reading.symbols  # the solution is shown as the picture printed it
    if reading.box_confidence < REVIEW_BOX:
        settled = settled_by_digits(
            reading, result, lambda turned: _solve_reading(turned, time_limit, fixed,
                                                           settle_seconds))
        if settled is not None:
            settled.symbols = reading.symbols
            box = settled.puzzle.box
            settled.message += (f"; the box shape ({box[0]}x{box[1]}) was settled by the "
                                "digits: the picture's box lines look like the others")
            return settled
    if result.status == "solved" and reading.box_confidence < REVIEW_BOX:
        # The picture did not show which lines bound the boxes: the solution holds for the
        # shape guessed, which a person should confirm.
        result.status = "needs_review"
        result.message += (f"; the box shape ({reading.box[0]}x{reading.box[1]}) was a "
                           "guess: the picture's box lines look like the others")
    return result


def _solve_reading(reading: Reading, time_limit: float, fixed: dict | None,
                   settle_seconds: float) -> SolveResult:
    started = time.perf_counter()
    whole = Budget.start(time_limit)  # the wall-clock limit, for every kind
    fixed_parts = normalise_fixed(fixed)
    n = reading.size
    box = check_shape(n, reading.box)
    geo = geometry(n, box)
    cells = cell_options(reading, fixed_parts.get("cells", {}))
    corrected = any(fixed_parts.values())
    if corrected:
        clashes = typed_clashes(geo, cells, CONFIDENT_PROB)
        if clashes:
            return clash_result(reading, clashes, started)
        cells = locked(cells)

    if reading.kind == "sudoku":
        outcome = repair_grid(geo, cells, [], [], whole)
        layout = None
        sums: list[Options] = []
    else:
        by_cell = sum_options(reading, fixed_parts.get("cage_sums", {}))
        if corrected:
            by_cell = dict(zip(by_cell, locked(list(by_cell.values())), strict=True))
        for (r, c) in by_cell:
            if not (0 <= r < n and 0 <= c < n):
                raise PuzzleError(f"a cage sum sits at ({r},{c}), outside the grid")
        walls = read_walls(reading, fixed_parts, lock=corrected)
        layouts = cage_layouts(n, walls, {r * n + c for r, c in by_cell})
        best_cells_lp = argmax_log_prob(cells, [])
        best_sum_lp = sum(log_prob(o, o.best) for o in by_cell.values())
        outcome, layout, sums = None, None, []
        settle = whole.within(settle_seconds)
        layout_budget = settle
        cut = False  # layouts were left untried when the budget ran out
        likeliest = None  # the most probable layout's cages and sums
        for lp, flipped, cages, heads in layouts:
            if outcome is not None and not isinstance(outcome, str) and \
                    lp + best_cells_lp + best_sum_lp <= outcome.log_prob:
                break  # no later layout can beat what was found
            these_sums = [by_cell[divmod(h, n)] for h in heads]
            likeliest = likeliest or (cages, these_sums)
            if layout_budget.spent():
                cut = True
                break
            found = repair_grid(geo, cells, cages, these_sums, layout_budget)
            if found is None or isinstance(found, str):
                outcome = outcome or found
                continue
            found.log_prob += lp
            if outcome is None or isinstance(outcome, str) or better(found, outcome):
                outcome, layout, sums = found, (flipped, cages, walls), these_sums
            if outcome.answer.verdict == "unique" and layout_budget is settle:
                # Less likely wall layouts rarely beat a unique answer: they get a short
                # extra time, not the whole limit.
                layout_budget = settle.within(EXTRA_LAYOUT_SECONDS)
        # "unknown": a search was cut short. A search stops at its share of the work
        # (deterministic time), which may come a little before the CPU budget is spent.
        if (outcome == "unknown" or outcome is None and cut) and \
                settle_seconds < time_limit:
            return unsettled_killer(reading, by_cell, started, open_sums(geo, likeliest))
        if not isinstance(outcome, Outcome):
            sums = list(by_cell.values())  # to name the least sure of them
    return build_result(reading, geo, cells, sums, layout, outcome, started)


def locked(options: list[Options]) -> list[Options]:
    """Confident readings, kept as read (a person has corrected the grid)."""
    return [replace(o, values=o.values[:1], locked=True)
            if not o.fixed and o.values[0][1] >= CONFIDENT_PROB else o for o in options]


def open_sums(geo: Geometry, layout: tuple | None) -> list[Options] | None:
    """On the likeliest cage layout, the sums whose choice decides the answer: once the 45
    rule has pruned their likely values (read at least as likely as the first stage's
    floor), those with more than one left, or one other than the value read. None when
    the rule does not apply."""
    if layout is None or not RULE_OUT_SUMS:
        return None
    cages, sums = layout
    likely = narrowed(sums, KILLER_STAGES[0][0])
    kept = prune_sums(geo, cages, [[v for v, _ in o.values] for o in likely])
    if kept is None:
        return None
    return [o for o, values in zip(sums, kept, strict=True)
            if len(values) > 1 or values[0] != o.best]


def better(a: Outcome, b: Outcome) -> bool:
    return (a.answer.verdict == "unique", a.log_prob) > (b.answer.verdict == "unique",
                                                         b.log_prob)
