"""Killer readings with many doubtful cage sums: the repair with the 45-rule pruning of
sum candidates (cage_sums.py) beside the same repair without it, in one run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cage_sums.py [--plain 100] [--hard 20]

Readings come from generated killers with known answers: `--plain` ones
(make_killer, cages of up to 5 cells) and `--hard` ones (make_killer(hard=True),
large cages as in newspaper "fiendish" killers; several readings per puzzle, since
one takes seconds to make). In each, k sums (k = 5, 10, 20) are read with doubt:
the right value at p 0.3-0.6 among 2-4 candidates and a tail of faint ones, a
wrong value on top in about a third of them (tests/solver/doubtful_sums.py). The
repair runs with its default budget; per group and k: readings, answered (a
solution given), right (the true unique solution), wrong as `solved`, `unknown`
verdicts, suspects per reading, and the CPU time per reading (mean, p95), old and
new alternating reading by reading. Writes bench/out/cage_sums.md.
"""
