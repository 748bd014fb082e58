"""Budget: how long the repair may work, in CPU seconds of the working thread, capped by
the wall clock.

Whether the repair settles a killer reading in time decides between an answer and a
hand-over to a person. Counted by the wall clock, the same picture was solved on a quiet
machine and handed over on a busy one (held-out textured killers: 97 % solved alone, 92 %
under a load of 12-19 on two cores). The same picture should get the same answer however
busy the machine is, so the settle budget counts the CPU time of the thread doing the
work (time.thread_time). CP-SAT with one worker searches on the calling thread, so its
work is counted too; its own limit is given in deterministic time (`work`), so that a
search stops at the same point whatever the load. The wall-clock cap (the job's time
limit) still bounds how long anyone waits.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

# CP-SAT's deterministic time per CPU second of search: 1.3-2.3 on the repair's long
# searches on the two-core machine the budgets were set on. At the low end, a search
# rarely runs past the CPU time left (at 2.3 the repair of hard handwritten readings
# overran a 0.8 s budget by up to 0.25 s, and settled none more). A faster machine does
# more per second: its searches stop sooner in seconds, at the same point in the search.
WORK_PER_CPU_SECOND = 1.5


@dataclass(frozen=True)
class Budget:
    cpu_end: float  # time.thread_time() at which the budget is spent (inf: wall cap only)
    wall_end: float  # time.perf_counter() at which it is spent whatever the CPU

    @classmethod
    def start(cls, wall_seconds: float, cpu_seconds: float = math.inf) -> Budget:
        return cls(time.thread_time() + cpu_seconds, time.perf_counter() + wall_seconds)

    def cpu_left(self) -> float:
        return self.cpu_end - time.thread_time()

    def wall_left(self) -> float:
        return self.wall_end - time.perf_counter()

    def spent(self) -> bool:
        return self.cpu_left() <= 0 or self.wall_left() <= 0

    def part(self, fraction: float) -> Budget:
        """`fraction` of the CPU time left, for one step (the same wall cap)."""
        left = self.cpu_left()
        if math.isinf(left):
            return self
        return Budget(time.thread_time() + fraction * max(0.0, left), self.wall_end)

    def within(self, cpu_seconds: float) -> Budget:
        """At most `cpu_seconds` more of this budget."""
        return Budget(min(self.cpu_end, time.thread_time() + cpu_seconds), self.wall_end)

    def work(self) -> float | None:
        """CP-SAT's deterministic time limit for a search within the CPU budget (None:
        no CPU budget, the wall cap alone)."""
        left = self.cpu_left()
        return None if math.isinf(left) else max(0.005, left * WORK_PER_CPU_SECOND)
